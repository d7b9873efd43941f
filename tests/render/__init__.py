"""Tests of bot/render: embeds, hands and rules in words."""
