"""The table as a Discord Activity: a drawn table inside Discord, live over a websocket.

Served by the bot process beside its web pages (``web_port``), since it plays through the
process's own :class:`~bot.tables.TableService`: the built client (``client/``, built
into ``static/`` and shipped in the package), the sign-in through Discord's OAuth2
(:mod:`.signin`), one websocket per instance and person (:mod:`.sockets`), and the one
module that reads a table and asks it for changes (:mod:`.feed`).

    activity = Activity(service, ActivityOptions(client_id=..., client_secret=..., bot_token=...))
    app = make_app(db, options, activity=activity)
"""

from .site import Activity, ActivityOptions

__all__ = ["Activity", "ActivityOptions"]
