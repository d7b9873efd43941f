"""Links to a server's web pages (``bot.web``), for the messages that share them."""

from __future__ import annotations

__all__ = ["public_base", "season_page", "server_page", "table_page", "web_answer", "web_line"]


def public_base(base_url: str, public: bool) -> str:
    """The pages' address when this server's are on the web (``web_public``), else ""."""
    return base_url.rstrip("/") if base_url and public else ""


def server_page(base_url: str, guild_id: int) -> str:
    """The address of a server's league page."""
    return f"{base_url.rstrip('/')}/s/{guild_id}"


def season_page(base_url: str, guild_id: int, season_id: int) -> str:
    """The address of a season's standings (an ended one's stay frozen there)."""
    return f"{server_page(base_url, guild_id)}?season={season_id}"


def table_page(base_url: str, guild_id: int, table_id: int) -> str:
    """The address that leads to a table's game: its replay once finished and archived."""
    return f"{server_page(base_url, guild_id)}/tables/{table_id}"


def web_line(what: str, url: str) -> str:
    """A post's line with a page's link: "🌐 The replay on the web: <url>" (``what`` first)."""
    return f"🌐 {what} on the web: {url}"


def web_answer(base_url: str, guild_id: int, public: bool) -> tuple[str, bool]:
    """What ``/euchre web`` says, and whether everyone sees it (the link) or only the asker."""
    if not base_url:
        return (
            "This bot has no web pages: its operator gives them an address with the "
            "web_base_url option.",
            False,
        )
    if not public:
        return (
            "This server's league has no web pages yet: an admin turns them on with "
            "/euchre settings set setting:web_public value:yes.",
            False,
        )
    return f"This server's league on the web: {server_page(base_url, guild_id)}", True
