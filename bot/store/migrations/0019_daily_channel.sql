-- Schema 19: the daily deal's weekly summary.
-- daily_channel: the channel where a server's week of daily deals is summed up (NULL: no
-- post). daily_weekly_posts: one row a server and week once its summary is posted, so a
-- second process (or a restart) never posts it again.

ALTER TABLE guild_settings ADD COLUMN daily_channel BIGINT;

CREATE TABLE daily_weekly_posts (
    guild_id     BIGINT NOT NULL,
    week         TEXT NOT NULL,
    posted_at    TEXT NOT NULL,
    PRIMARY KEY (guild_id, week)
);
