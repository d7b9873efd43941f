"""Tests of the search pool (bot/search_pool)."""
