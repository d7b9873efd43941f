"""Typed settings: options from a TOML file and the environment, the token from the environment.

Where a value comes from, strongest first:

1. environment variables ``EUCHRE_<OPTION>`` (for example ``EUCHRE_DATA_DIR=/data``);
   an ``EUCHRE_*`` variable that names no option, and is none of the project's other
   variables (:data:`OTHER_VARIABLES`), stops the start, as an unknown key in the file
   does (:func:`unknown_variables`);
2. the TOML config file: ``--config PATH``, else ``$EUCHRE_CONFIG``, else ``config.toml``
   in the working directory (which may be missing: then the defaults apply);
3. the defaults below, documented in ``config.example.toml``.

The bot token is read only from ``DISCORD_TOKEN`` and never from the config file.
Nothing here is a singleton: :func:`load_settings` builds a :class:`Settings` that the
caller passes down.

Longer than 450 lines: every option of the process is one field of :class:`Settings`,
with its default and description, and the one list of them reads best in one place.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
)

from bot.compiled import PURE_VARIABLE
from bot.logs import LogFormat
from bot.search_pool import REVIEW_QUEUE
from bot.settings_errors import (
    ENV_PREFIX,
    OptionsClashError,
    Origins,
    closest,
    describe,
    describe_settings_error,
    env_name,
)
from bot.store.urls import parse_url, sqlite_file, sqlite_url

__all__ = [
    "CONFIG_ENV",
    "DEFAULT_CONFIG",
    "ENV_PREFIX",
    "OTHER_VARIABLES",
    "SECRET_ENV",
    "TOKEN_ENV",
    "WEB_ADDRESS_NEEDED",
    "ConfigError",
    "Settings",
    "load_settings",
    "read_config_file",
    "unknown_variables",
]

DEFAULT_CONFIG = Path("config.toml")
CONFIG_ENV = "EUCHRE_CONFIG"
TOKEN_ENV = "DISCORD_TOKEN"
SECRET_ENV = "DISCORD_CLIENT_SECRET"

OTHER_VARIABLES: dict[str, str] = {
    CONFIG_ENV: "the config file to read",
    PURE_VARIABLE: "run the pure-Python sources, not the compiled modules (bot/compiled.py)",
    "EUCHRE_TEST_POSTGRES": "which PostgreSQL server the tests start (tests/kit)",
    "EUCHRE_BROWSER_REQUIRED": "1: the browser tests fail, not skip, without Chromium (.ci/run)",
    "EUCHRE_NODE_REQUIRED": "1: the Activity's build check fails, not skips, without npm (.ci/run)",
    "EUCHRE_SCREENSHOTS": "a folder where the browser tests save their screenshots",
    "EUCHRE_CHROMIUM": "the Chromium the browser tests drive (default /usr/bin/chromium)",
    "EUCHRE_AXE_DIR": "where the browser tests keep axe-core (~/.cache/euchre-bot/axe-core)",
    "EUCHRE_LIGHTHOUSE_DIR": "where the browser tests keep Lighthouse (~/.cache/euchre-bot)",
    "EUCHRE_TEST_HELD": "a file the PostgreSQL clean-up test names for its held server",
    "EUCHRE_TEST_SLOW_DB": "seconds each database commit or request of the tests waits",
}
"""The ``EUCHRE_*`` variables the project reads that are not options: the one list of them."""

_EXAMPLE_HINT = "see config.example.toml"
_TOKEN_KEYS = frozenset(
    {"token", "discord_token", "bot_token", "client_secret", "discord_client_secret"}
)
_SWITCH_WORDS = {"true": 1, "yes": 1, "on": 1, "false": 0, "no": 0, "off": 0}

WEB_ADDRESS_NEEDED = (
    "the web pages need web_base_url, their public address (https://euchre.example.org): "
    "every link in them and in their previews starts with it"
)
"""Why the pages do not start without ``web_base_url``."""

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
Snowflake = Annotated[int, Field(gt=0, lt=2**64)]


class ConfigError(Exception):
    """The configuration cannot be used; the message is one line saying what to fix."""


class Settings(BaseSettings):
    """Everything the process needs to know at start-up.

    Keyword arguments play the config file's part: ``EUCHRE_*`` variables override them.
    """

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_ignore_empty=True,
        extra="forbid",
        frozen=True,
    )

    data_dir: Path = Path("data")
    """Folder for the bot's files; relative paths are taken from the working directory."""

    database: str = "euchre.sqlite3"
    """File name of the SQLite database inside ``data_dir``."""

    database_url: str = ""
    """Where the store lives: ``sqlite:///PATH`` or ``postgresql://user:password@host/db``.

    Left empty, it is the SQLite file ``database`` inside ``data_dir``
    (``sqlite:///data/euchre.sqlite3``): the one place that decides is this field,
    filled from those two when not given.
    """

    database_timeout: float = Field(default=1.0, gt=0, le=600, allow_inf_nan=False)
    """Seconds a PostgreSQL server gets to answer one statement, or to let the bot connect.

    A server that stops answering without closing the connection (its host gone, a
    frozen machine) would otherwise hold a store call, and the table's lock, until the
    operating system gives the connection up, many minutes later. Past the bound the
    connection is closed and the call fails like a dropped one: the player is told the
    change couldn't be saved and nothing changed, and the next call connects again.
    1 s fits Discord: a click is answered after its save, within 3 s; a move whose
    save gets no answer is read back on a new connection, which may wait as long
    again, and the answer still comes in time. A healthy server answers the bot's
    statements in milliseconds; raise this for a distant one. SQLite has no server;
    migrations and the start-up reads wait as long as they take.
    """

    shard_count: int = Field(default=0, ge=0, le=65_536)
    """Shards of the whole bot, over every process; 0: as many as Discord recommends."""

    shard_ids: tuple[Annotated[int, Field(ge=0)], ...] = ()
    """The shards this process runs (each below ``shard_count``); empty: all of them."""

    dev_guild_ids: tuple[Snowflake, ...] = ()
    """Guilds whose slash commands are synced at start-up (instant, for development)."""

    sync_global: bool = False
    """Sync slash commands globally at every start-up (slow to spread, rate limited).

    ``python -m bot sync --global`` does it once and exits, which is usually better.
    """

    owner_ids: tuple[Snowflake, ...] = ()
    """Users discord.py's ``Bot.is_owner`` counts as owners (empty: the application's owner).

    No command checks for an owner, so it changes nothing; kept so config files still load.
    """

    log_level: LogLevel = "INFO"
    """The least important log lines written (to stderr)."""

    log_format: LogFormat = "text"
    """``text``: plain lines, coloured only on a terminal; ``json``: one JSON object a line.

    JSON lines carry ``time``, ``level``, ``logger``, ``message``, and ``guild`` and
    ``table`` where the line is about one (for log collectors).
    """

    computer_move_delay: float = Field(default=1.0, ge=0, le=60, allow_inf_nan=False)
    """Seconds between computer moves shown at the table (0 in tests)."""

    tables_in_threads: bool = False
    """Open each table in a thread of its own (servers may choose otherwise)."""

    search_workers: Annotated[int, Field(ge=0, le=256)] | Literal["auto"] = "auto"
    """Worker processes of the search pool (``bot.search_pool``): ``auto`` for the cores
    less one, at least 1; 0 for threads of the bot's own process (tests). Reviews run on
    review workers besides them, one a core."""

    search_grace: float = Field(default=0.3, ge=0, le=60, allow_inf_nan=False)
    """Seconds past the computer delay a computer's search may take; then basic's move."""

    review_queue: int = Field(default=REVIEW_QUEUE, ge=1, le=100_000)
    """Reviews that may wait for the search pool at once; past it the oldest are dropped."""

    idle_lobby_minutes: float = Field(default=30, gt=0, le=10_080, allow_inf_nan=False)
    """A lobby nobody touched for this long is closed."""

    idle_game_minutes: float = Field(default=240, gt=0, le=10_080, allow_inf_nan=False)
    """A game nobody played for this long is closed."""

    web_host: str = "127.0.0.1"
    """Address the web pages listen on (``python -m bot web``, or the bot with ``web_port``)."""

    web_port: int = Field(default=0, ge=0, le=65_535)
    """Port of the web pages; 0: the bot process serves none (``python -m bot web`` uses 8080)."""

    web_base_url: str = ""
    """The pages' public address (``https://euchre.example.org``): every link in them, in
    ``/euchre web`` and in link previews starts with it. The pages refuse to start without
    it; the bot without pages (``web_port`` 0) needs it only to link them."""

    web_requests_per_minute: int = Field(default=120, ge=1, le=100_000)
    """Pages one address may ask for a minute (in bursts of a tenth of it); more get 429.

    Static files (style sheet, script, cards) count apart, ten times as many."""

    web_trust_forwarded: int = Field(default=0, ge=0, le=10)
    """Reverse proxies in front of the pages whose X-Forwarded-For is believed (0: none).

    The client's address is taken that many entries from the end of the header. Only for
    a port that nothing but the proxies can reach: anyone else could write that header.
    ``true`` and ``false`` (this option's old form) read as 1 and 0."""

    web_processes: int = Field(default=0, ge=0, le=64)
    """Processes ``python -m bot web`` serves the pages from (0: one per processor core).

    They share one listening socket and the rate per address; each keeps its own page
    cache and store connections. The bot process serving pages (``web_port``) is one."""

    web_readers: int = Field(default=4, ge=1, le=64)
    """Connections that only read, in each process serving pages: pages being made at once.

    On PostgreSQL each is a session of the server's ``max_connections``."""

    activity_client_id: int = Field(default=0, ge=0, lt=2**64)
    """The application's id (its OAuth2 client id), which turns the Discord Activity on.

    0: no Activity. With it, the bot serving pages (``web_port``) serves the Activity
    under ``/activity`` too, and needs the application's OAuth2 secret in the
    ``DISCORD_CLIENT_SECRET`` environment variable (docs/activity.md)."""

    discord_api_url: str = "https://discord.com/api/v10"
    """Where Discord's HTTP API answers, for the Activity's sign-in (OAuth2 and instances)."""

    discord_token: SecretStr | None = Field(default=None, validation_alias=TOKEN_ENV, exclude=True)
    """The bot token, only from the environment; see :meth:`require_token`."""

    discord_client_secret: SecretStr | None = Field(
        default=None, validation_alias=SECRET_ENV, exclude=True
    )
    """The application's OAuth2 secret, for the Activity's sign-in: only from the environment."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Keyword arguments carry the config file's values, so the environment comes first.
        return (env_settings, init_settings)

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_log_level(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("database")
    @classmethod
    def _plain_file_name(cls, value: str) -> str:
        if not value or value in {".", ".."} or Path(value).name != value:
            raise ValueError("must be a file name inside data_dir, not a path")
        return value

    @field_validator("database_url")
    @classmethod
    def _known_database(cls, value: str) -> str:
        if value:
            parse_url(value)  # its ValueError says what is wrong
        return value

    @field_validator("web_trust_forwarded", mode="before")
    @classmethod
    def _hops_from_old_switch(cls, value: object) -> object:
        """The old on/off form: on meant one proxy in front, off none."""
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, str) and value.strip().lower() in _SWITCH_WORDS:
            return _SWITCH_WORDS[value.strip().lower()]
        return value

    @field_validator("web_base_url", "discord_api_url")
    @classmethod
    def _web_address(cls, value: str, info: ValidationInfo) -> str:
        value = value.strip().rstrip("/")
        pages = info.field_name == "web_base_url"
        if (value or not pages) and not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", value):
            like = (
                "https://euchre.example.org (or empty)" if pages else "https://discord.com/api/v10"
            )
            raise ValueError(f"must be an address like {like}")
        return value

    @model_validator(mode="after")
    def _pages_need_their_address(self) -> Settings:
        if self.web_port and not self.web_base_url:
            raise OptionsClashError(WEB_ADDRESS_NEEDED, "web_port", "web_base_url")
        if self.activity_client_id and not self.web_port:
            raise OptionsClashError(
                "activity_client_id needs web_port: the bot process serves the Activity "
                "beside its web pages (docs/activity.md)",
                "activity_client_id",
                "web_port",
            )
        return self

    @property
    def serves_activity(self) -> bool:
        """Whether the bot serves the Discord Activity (its tables offer "Open the table")."""
        return bool(self.activity_client_id and self.web_port)

    def require_activity_secret(self) -> SecretStr | None:
        """The Activity's OAuth2 secret (None: no Activity), or :class:`ConfigError`.

        Asked by what serves the Activity, the bot, before it logs in: the other commands
        may run where the secret is not in the environment.
        """
        if not self.serves_activity:
            return None
        if self.discord_client_secret is None:
            raise ConfigError(
                f"activity_client_id is set, so the Activity's sign-in needs the application's "
                f"OAuth2 secret in the {SECRET_ENV} environment variable (docs/activity.md)"
            )
        return self.discord_client_secret

    @model_validator(mode="after")
    def _one_database_and_shards(self) -> Settings:
        if not self.database_url:
            # Frozen model: filled once, while it is being built.
            self.__dict__["database_url"] = sqlite_url(self.data_dir / self.database)
        elif "database" in self.model_fields_set:
            raise OptionsClashError(
                "set database_url or database, not both "
                "(database is the SQLite file name used when database_url is empty)",
                "database_url",
                "database",
            )
        if self.shard_ids:
            shards = ("shard_ids", "shard_count")
            if not self.shard_count:
                raise OptionsClashError(
                    "shard_ids needs shard_count (the shards of every process)", *shards
                )
            too_big = [i for i in self.shard_ids if i >= self.shard_count]
            if too_big:
                raise OptionsClashError(
                    f"shard {too_big[0]} does not exist: shards are 0 to {self.shard_count - 1}",
                    *shards,
                )
            if len(set(self.shard_ids)) != len(self.shard_ids):
                raise OptionsClashError("shard_ids lists a shard twice", "shard_ids")
            if len(self.shard_ids) < self.shard_count and self.database_path is not None:
                raise OptionsClashError(
                    "shard_ids splits the bot over processes, which need one shared store: "
                    "set database_url to a PostgreSQL database",
                    *shards,
                    "database_url",
                    "database",
                    "data_dir",
                )
        return self

    @field_validator("discord_token", "discord_client_secret", mode="before")
    @classmethod
    def _strip_token(cls, value: object) -> object:
        if isinstance(value, str):
            return value.strip() or None
        return value

    @property
    def database_path(self) -> Path | None:
        """The SQLite file of ``database_url``; None when the store is PostgreSQL."""
        return sqlite_file(parse_url(self.database_url))

    @property
    def database_shown(self) -> str:
        """``database_url`` fit for a log line or a message (no password)."""
        return parse_url(self.database_url).shown

    def require_token(self) -> SecretStr:
        """Return the bot token, or raise :class:`ConfigError` if it is missing."""
        if self.discord_token is None:
            raise ConfigError(
                f"{TOKEN_ENV} is not set: put your bot token in the {TOKEN_ENV} "
                "environment variable (see README)"
            )
        return self.discord_token


def read_config_file(path: Path, *, required: bool) -> dict[str, Any]:
    """Parse the TOML file at ``path``; a missing file gives ``{}`` unless ``required``."""
    try:
        with path.open("rb") as file:
            values = tomllib.load(file)
    except FileNotFoundError:
        if required:
            raise ConfigError(
                f"config file {path} does not exist: fix the path, or leave out --config "
                f"and {CONFIG_ENV} to use {DEFAULT_CONFIG} or the defaults"
            ) from None
        return {}
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc} ({_EXAMPLE_HINT})") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text: save it as UTF-8") from None
    except OSError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc.strerror}") from None
    for key in values:
        if key.lower() in _TOKEN_KEYS:
            raise ConfigError(
                f"{path}: remove '{key}': the bot token is read only from the "
                f"{TOKEN_ENV} environment variable, never from the config file"
            )
    return values


def load_settings(config: Path | None = None) -> Settings:
    """Build :class:`Settings` from the config file and the environment.

    ``config`` is the ``--config`` path, if given. Raises :class:`ConfigError` with a
    one-line message when anything is wrong.
    """
    if config is not None:
        path, required = config, True
    elif os.environ.get(CONFIG_ENV):
        path, required = Path(os.environ[CONFIG_ENV]), True
    else:
        path, required = DEFAULT_CONFIG, False
    values = read_config_file(path, required=required)
    _check_environment()
    try:
        settings = Settings(**values)
    except ValidationError as exc:
        origins = Origins(path, frozenset(values), os.environ)
        said = describe(exc.errors(), Settings, origins, _OPTIONS)
        raise ConfigError(f"{said} ({_EXAMPLE_HINT})") from None
    except SettingsError as exc:
        said = describe_settings_error(exc, Settings)
        raise ConfigError(f"{said} ({_EXAMPLE_HINT})") from None
    return settings


def unknown_variables(environ: Mapping[str, str] | None = None) -> list[str]:
    """One phrase for each ``EUCHRE_*`` variable that is neither an option nor the project's."""
    env = os.environ if environ is None else environ
    known = [env_name(field) for field in _OPTIONS] + list(OTHER_VARIABLES)
    # Compared without the prefix, which every name shares.
    suffixes = {name.removeprefix(ENV_PREFIX): name for name in known}
    unknown = []
    for key in sorted(env):
        name = key.upper()
        if not name.startswith(ENV_PREFIX) or name in known:
            continue
        close = closest(name.removeprefix(ENV_PREFIX), suffixes)
        hint = f" (did you mean {suffixes[close]}?)" if close else ""
        if name == env_name(TOKEN_ENV):
            hint = f" (the token is read from {TOKEN_ENV})"
        unknown.append(f"environment variable {key} names no option{hint}")
    return unknown


def _check_environment() -> None:
    """Raise :class:`ConfigError` naming every unknown ``EUCHRE_*`` variable."""
    unknown = unknown_variables()
    if unknown:
        which = "it" if len(unknown) == 1 else "them"
        raise ConfigError(f"{'; '.join(unknown)}: unset {which} or fix the spelling")


_SECRETS = ("discord_token", "discord_client_secret")
_OPTIONS = tuple(field for field in Settings.model_fields if field not in _SECRETS)
"""The options' names: every field but the secrets, which only the environment gives."""
