"""Tests of the pace of Discord requests (bot/discord/pace)."""
