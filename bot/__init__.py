"""Euchre for Discord: the rules core, computer players, store, tables and rendering."""
