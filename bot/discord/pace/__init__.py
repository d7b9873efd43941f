"""Discord's rate limits on the bot's side: the pace of every channel's requests.

Each channel allows about 5 message posts, 5 edits and 5 deletes per 5 s. This package
spends that budget: :mod:`.windows` models a channel's windows and Discord's limits,
:mod:`.pacing` runs one pacer per channel (the newest state of a message wins, at most
one request in flight for it), and :mod:`.headers` reads Discord's rate-limit headers
back into the pacers. Only the Discord side (``bot/discord/app.py``, ``cogs/``) uses it; the
table service below knows nothing of it.
"""
