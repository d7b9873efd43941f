"""Links to a server's web pages (``bot.web``), for the messages that share them."""

from __future__ import annotations

__all__ = ["server_page", "web_answer"]


def server_page(base_url: str, guild_id: int) -> str:
    """The address of a server's league page."""
    return f"{base_url.rstrip('/')}/s/{guild_id}"


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
