"""How to play here, in a few lines."""

from __future__ import annotations

from typing import Final

import discord

__all__ = ["HELP_LINES", "help_embed"]

HELP_LINES: Final = (
    "**/euchre new** opens a table in this channel. Click **Join** to sit down, or choose "
    "a seat to sit opposite your partner; partners sit in alternate seats.",
    "The host fills empty seats with **Add computer** and clicks **Start** when every seat "
    "is taken.",
    "Click **Your hand** on the table (or type **/euchre hand**): your cards arrive in a "
    "message only you can see, with a button for every move you may make now. Cards you "
    "can't play are greyed out.",
    "Bidding: in the first round **Order up** makes the upcard's suit trump (the dealer "
    "picks it up); in the second round name any other suit. **Alone** plays without your "
    "partner for more points.",
    "Play: follow the suit led if you can. The jack of trump (right bower) is the highest "
    "trump, then the other jack of the same colour (left bower), which counts as trump.",
    "**/euchre rules show** shows the house rules in plain words (each table's **Rules** "
    "button shows its own). **/euchre leave** leaves the table (during a game a computer "
    "takes over your seat), and the host, or anyone who may manage the server, can close "
    "it with **/euchre abort**.",
    "Server admins (Manage Server, or the role the server names) change the house rules "
    "with **/euchre rules preset** and **/euchre rules set**, and the server's settings "
    "with **/euchre settings set**; a table keeps the rules it opened with. A host may "
    "pick other rules for one table with the options of **/euchre new**, where the "
    "server allows it (the game is then casual).",
)


def help_embed() -> discord.Embed:
    """The help text."""
    return discord.Embed(
        title="Euchre: how to play here",
        description="\n\n".join(HELP_LINES),
        colour=discord.Colour.blurple(),
    )
