"""Read-only web pages of each server's league: standings, players, finished games.

Server-rendered (aiohttp and Jinja2, autoescaped), from the same store as the bot,
and stateless: any number of processes may serve one PostgreSQL store. A server's
pages exist only while its admins keep ``web_public`` on. Only ``bot/__main__.py``
(``python -m bot web``, or the bot process with ``web_port``) imports this package.

    app = make_app(db, WebOptions(base_url="https://euchre.example.org"))
"""

from .app import WebOptions, make_app

__all__ = ["WebOptions", "make_app"]
