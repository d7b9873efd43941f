"""Tests of the euchre cog through the interaction harness."""
