"""Thin discord.py extensions: slash commands and components.

Each module here is an extension listed in ``bot.discord.app.EXTENSIONS`` (``"cogs.euchre"``).
A cog parses the interaction, calls ``bot.tables`` and renders the answer with
``bot.render``; game logic and storage live below it.
"""
