"""Tests of a server's configuration (bot/server), without Discord."""
