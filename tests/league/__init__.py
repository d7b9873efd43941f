"""League tests: ranking rules, ratings, seasons, stats and replays on a real database."""
