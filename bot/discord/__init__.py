"""The one door to Discord: everything of the bot that speaks discord.py.

:mod:`.app` is the bot (``EuchreBot``) and its app-command error funnel; :mod:`.replies`
the ephemeral answer every refusal goes through and :mod:`.refusals` the log of what
Discord refused; :mod:`.routes` every ``custom_id`` and the handler it goes to; :mod:`.pace`
Discord's rate limits on the bot's side; :mod:`.publisher` the one door to a channel's
messages. One module or package per feature holds its views, embeds and components:
:mod:`.tables` (the public table, the private hands, the presenter), :mod:`.league`,
:mod:`.tournaments`. The slash commands themselves are the cogs' (``cogs/euchre``), which
parse, call the domain and draw with these builders. Nothing below (the tables, the
features, the store, the rules) imports this package.
"""
