"""Render's panels as discord.py's embeds: the one place that turns the one into the other."""

from __future__ import annotations

import discord

from bot.render.panel import Panel

__all__ = ["embed_of"]


def embed_of(panel: Panel) -> discord.Embed:
    """The embed that shows ``panel``: its title, text, colour, fields and footer."""
    colour = None if panel.colour is None else getattr(discord.Colour, panel.colour)()
    embed = discord.Embed(title=panel.title, description=panel.description, colour=colour)
    for part in panel.fields:
        embed.add_field(name=part.name, value=part.value, inline=part.inline)
    if panel.footer is not None:
        embed.set_footer(text=panel.footer)
    if panel.image is not None:
        embed.set_image(url=f"attachment://{panel.image}")
    return embed
