"""Tests of bot/store on real SQLite files."""
