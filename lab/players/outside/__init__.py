"""Adapters seating other people's euchre computers through the player protocol.

Nothing here is the project's own play: each module wraps a published package
(an optional extra, ``pip install euchre-bot[outside]``) so that the arena can
measure the built-in levels against players nobody here wrote.
"""
