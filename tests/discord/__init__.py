"""Tests of the Discord door (bot/discord): the app, replies, refusals, routes, pacing."""
