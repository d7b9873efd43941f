"""Tests of the table service (bot/tables), without Discord."""
