"""Tests of the pace of Discord requests (bot/discord_pace)."""
