"""Discord's limits on the bot's side: every request through one gate, and permissions.

:mod:`.gate` is the one gate every request passes (an aiohttp trace on discord.py's
session): Discord's global limit and the route buckets of thread creation, members'
roles and scheduled events (:mod:`.buckets`). Each channel allows about 5 message
posts, 5 edits and 5 deletes per 5 s: :mod:`.windows` models a channel's windows,
:mod:`.pacing` runs one pacer per channel (the newest state of a message wins, at most
one request in flight for it), and :mod:`.headers` reads Discord's rate-limit headers
back into the pacers. :mod:`.permissions` says what each action needs of a server, so
the bot looks before it acts. Only the Discord side (``bot/discord/app.py``, ``cogs/``) uses
it; the table service below knows nothing of it.
"""
