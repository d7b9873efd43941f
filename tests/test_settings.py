"""Settings: the TOML file, the environment, the token and the one-line errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import SecretStr, ValidationError

from bot.settings import (
    CONFIG_ENV,
    OTHER_VARIABLES,
    ConfigError,
    Settings,
    load_settings,
    unknown_variables,
)
from tests.bot_env import REPO

pytestmark = pytest.mark.usefixtures("clean_env")


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def error_of(config: Path | None = None) -> str:
    with pytest.raises(ConfigError) as info:
        load_settings(config)
    message = str(info.value)
    assert "\n" not in message
    return message


def test_defaults_without_a_config_file() -> None:
    settings = load_settings()
    assert settings.data_dir == Path("data")
    assert settings.database == "euchre.sqlite3"
    assert settings.database_path == Path("data/euchre.sqlite3")
    assert settings.dev_guild_ids == ()
    assert settings.sync_global is False
    assert settings.owner_ids == ()
    assert settings.log_level == "INFO"
    assert settings.computer_move_delay == 1.0
    assert settings.discord_token is None


def test_reads_config_toml_in_the_working_directory(tmp_path: Path) -> None:
    write(
        tmp_path / "config.toml",
        """
        data_dir = "/srv/euchre"
        database = "games.db"
        dev_guild_ids = [111, 222]
        owner_ids = [333]
        log_level = "debug"
        computer_move_delay = 0
        """,
    )
    settings = load_settings()
    assert settings.database_path == Path("/srv/euchre/games.db")
    assert settings.dev_guild_ids == (111, 222)
    assert settings.owner_ids == (333,)
    assert settings.log_level == "DEBUG"
    assert settings.computer_move_delay == 0


def test_config_path_argument_beats_environment_beats_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "config.toml", 'log_level = "ERROR"')
    from_env = write(tmp_path / "env.toml", 'log_level = "WARNING"')
    from_flag = write(tmp_path / "flag.toml", 'log_level = "DEBUG"')
    assert load_settings().log_level == "ERROR"
    monkeypatch.setenv(CONFIG_ENV, str(from_env))
    assert load_settings().log_level == "WARNING"
    assert load_settings(from_flag).log_level == "DEBUG"


def test_a_named_config_file_must_exist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = tmp_path / "nope.toml"
    assert str(missing) in error_of(missing)
    monkeypatch.setenv(CONFIG_ENV, str(missing))
    assert str(missing) in error_of()


def test_environment_overrides_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = write(tmp_path / "c.toml", 'data_dir = "here"\ncomputer_move_delay = 2.5')
    monkeypatch.setenv("EUCHRE_DATA_DIR", "/data")
    monkeypatch.setenv("EUCHRE_DEV_GUILD_IDS", "[42]")
    settings = load_settings(config)
    assert settings.data_dir == Path("/data")
    assert settings.dev_guild_ids == (42,)
    assert settings.computer_move_delay == 2.5


def test_sync_global_from_file_and_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = write(tmp_path / "c.toml", "sync_global = true")
    assert load_settings(config).sync_global is True
    monkeypatch.setenv("EUCHRE_SYNC_GLOBAL", "false")
    assert load_settings(config).sync_global is False


@pytest.mark.parametrize(
    ("toml", "shown"),
    [
        ("dev_guild_ids = 1234", "dev_guild_ids = 1234"),
        ('owner_ids = "1, 2"', "owner_ids = '1, 2'"),
    ],
)
def test_one_id_where_a_list_goes_says_write_a_list(tmp_path: Path, toml: str, shown: str) -> None:
    config = write(tmp_path / "c.toml", toml)
    assert error_of(config) == (
        f"{config}: {shown}: write a list like [123, 456] (see config.example.toml)"
    )


@pytest.mark.parametrize("value", ["1234", "12, 13"])
def test_one_id_in_the_environment_says_write_a_list(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("EUCHRE_DEV_GUILD_IDS", value)
    message = error_of()
    assert message.startswith("environment variable EUCHRE_DEV_GUILD_IDS: ")
    assert "write a list like [123, 456]" in message


def test_unknown_euchre_variables_are_named_with_the_closest_option() -> None:
    environ = {
        "EUCHRE_DATA_DR": "/data",
        "euchre_log_levl": "debug",
        "EUCHRE_CONFG": "x.toml",
        "EUCHRE_COLOUR": "red",
        "EUCHRE_DATA_DIR": "/data",
        "EUCHRE_CONFIG": "x.toml",
        "EUCHRE_PURE": "1",
        "EUCHRE_TEST_POSTGRES": "system",
        "DISCORD_TOKEN": "t",
        "HOME": "/root",
    }
    assert unknown_variables(environ) == [
        "environment variable EUCHRE_COLOUR names no option",
        "environment variable EUCHRE_CONFG names no option (did you mean EUCHRE_CONFIG?)",
        "environment variable EUCHRE_DATA_DR names no option (did you mean EUCHRE_DATA_DIR?)",
        "environment variable euchre_log_levl names no option (did you mean EUCHRE_LOG_LEVEL?)",
    ]
    assert unknown_variables({"EUCHRE_DATA_DIR": "/d", "EUCHRE_DISCORD_TOKEN": "t"}) == [
        "environment variable EUCHRE_DISCORD_TOKEN names no option "
        "(the token is read from DISCORD_TOKEN)"
    ]


def test_an_unknown_euchre_variable_stops_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EUCHRE_DATABSE_URL", "postgresql://u:p@db/euchre")
    with pytest.raises(ConfigError) as caught:
        load_settings()
    assert str(caught.value) == (
        "environment variable EUCHRE_DATABSE_URL names no option "
        "(did you mean EUCHRE_DATABASE_URL?): unset it or fix the spelling"
    )


ENV_NAME = re.compile(r"""["'](EUCHRE_[A-Z][A-Z_]*)["']""")
"""A variable's name as a string constant in the code (a test's misspellings included)."""


def test_every_euchre_variable_the_project_reads_is_known() -> None:
    """The code and CI name only options and the listed others (OTHER_VARIABLES)."""
    known = {f"EUCHRE_{field.upper()}" for field in Settings.model_fields} | set(OTHER_VARIABLES)
    places = [*(REPO / "bot").rglob("*.py"), *(REPO / "cogs").rglob("*.py")]
    places += [p for p in (REPO / "tests").rglob("*.py") if p.name not in MISSPELLING_TESTS]
    places += [REPO / ".ci" / "run", REPO / "compose.yaml", REPO / "Dockerfile"]
    named = {
        f"{path.relative_to(REPO)}: {name}"
        for path in places
        if path.is_file()
        for name in ENV_NAME.findall(path.read_text(encoding="utf-8"))
        + re.findall(r"^\s*(?:export )?(EUCHRE_[A-Z_]+)[=:]", path.read_text(), re.M)
        if name not in known
    }
    assert named == set()


MISSPELLING_TESTS = frozenset({"test_settings.py", "test_main.py", "test_main_migrate.py"})
"""The tests that name misspelt variables on purpose."""


def test_token_comes_from_the_environment_as_a_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "  abc.def.ghi\n")
    settings = load_settings()
    token = settings.require_token()
    assert isinstance(token, SecretStr)
    assert token.get_secret_value() == "abc.def.ghi"
    assert "abc" not in repr(settings)
    assert "discord_token" not in settings.model_dump()


@pytest.mark.parametrize("value", [None, "", "   "])
def test_missing_or_empty_token(monkeypatch: pytest.MonkeyPatch, value: str | None) -> None:
    if value is not None:
        monkeypatch.setenv("DISCORD_TOKEN", value)
    settings = load_settings()
    with pytest.raises(ConfigError, match=r"^DISCORD_TOKEN is not set: .*environment variable"):
        settings.require_token()


@pytest.mark.parametrize("key", ["token", "discord_token", "DISCORD_TOKEN"])
def test_token_in_the_config_file_is_refused(tmp_path: Path, key: str) -> None:
    config = write(tmp_path / "c.toml", f'{key} = "abc.def.ghi"')
    message = error_of(config)
    assert str(config) in message
    assert "DISCORD_TOKEN environment variable" in message
    assert "abc" not in message


def test_malformed_toml_names_the_file_and_line(tmp_path: Path) -> None:
    config = write(tmp_path / "c.toml", 'log_level = "INFO"\ndata_dir = \n')
    message = error_of(config)
    assert message.startswith(f"{config}: invalid TOML: ")
    assert "line 2" in message


def test_unknown_option_is_named(tmp_path: Path) -> None:
    config = write(tmp_path / "c.toml", "log_levle = 'INFO'\n[extra]\nx = 1")
    message = error_of(config)
    assert message.startswith(f"{config}: ")
    assert "unknown option 'log_levle' (did you mean 'log_level'?): remove it" in message
    assert "unknown option 'extra': remove it or fix its spelling" in message


@pytest.mark.parametrize(
    ("toml", "names"),
    [
        ('computer_move_delay = "soon"', "computer_move_delay = 'soon'"),
        ("dev_guild_ids = 123", "dev_guild_ids = 123"),
        ('owner_ids = [1, "x"]', "owner_ids[1] = 'x'"),
        ("sync_global = 3", "sync_global = 3"),
        ("log_level = 10", "log_level = 10"),
        ('log_level = "LOUD"', "log_level = 'LOUD'"),
        ("data_dir = [1]", "data_dir = [1]"),
    ],
)
def test_wrong_type_names_file_option_and_value(tmp_path: Path, toml: str, names: str) -> None:
    config = write(tmp_path / "c.toml", toml)
    message = error_of(config)
    assert message.startswith(f"{config}: {names}: ")
    assert message.endswith("(see config.example.toml)")


@pytest.mark.parametrize("delay", ["-1", "-0.5", "61", "inf", "nan"])
def test_computer_move_delay_is_bounded(tmp_path: Path, delay: str) -> None:
    config = write(tmp_path / "c.toml", f"computer_move_delay = {delay}")
    assert error_of(config).startswith(f"{config}: computer_move_delay = {delay}: ")


@pytest.mark.parametrize("seconds", ["0", "-1", "601", "inf", "nan"])
def test_database_timeout_is_bounded(tmp_path: Path, seconds: str) -> None:
    config = write(tmp_path / "c.toml", f"database_timeout = {seconds}")
    assert error_of(config).startswith(f"{config}: database_timeout = {seconds}: ")


def test_database_timeout_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_settings().database_timeout == 1.0
    monkeypatch.setenv("EUCHRE_DATABASE_TIMEOUT", "2.5")
    assert load_settings().database_timeout == 2.5


def test_negative_delay_message_is_clear(tmp_path: Path) -> None:
    config = write(tmp_path / "c.toml", "computer_move_delay = -1")
    assert error_of(config) == (
        f"{config}: computer_move_delay = -1: Input should be greater than or equal to 0 "
        "(see config.example.toml)"
    )


@pytest.mark.parametrize("ids", ["[0]", "[-5]", "[18446744073709551616]"])
def test_ids_must_be_discord_snowflakes(tmp_path: Path, ids: str) -> None:
    config = write(tmp_path / "c.toml", f"dev_guild_ids = {ids}")
    assert "dev_guild_ids[0]" in error_of(config)


@pytest.mark.parametrize("name", ["", "..", "sub/euchre.sqlite3", "/tmp/x.sqlite3"])
def test_database_is_a_plain_file_name(tmp_path: Path, name: str) -> None:
    config = write(tmp_path / "c.toml", f"database = {name!r}")
    assert "must be a file name inside data_dir" in error_of(config)


def test_bad_environment_values_name_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EUCHRE_COMPUTER_MOVE_DELAY", "-3")
    assert error_of().startswith("environment variable EUCHRE_COMPUTER_MOVE_DELAY: ")
    monkeypatch.delenv("EUCHRE_COMPUTER_MOVE_DELAY")
    monkeypatch.setenv("EUCHRE_OWNER_IDS", "12, 13")
    assert error_of().startswith("environment variable EUCHRE_OWNER_IDS: not valid JSON")


def test_settings_are_immutable() -> None:
    settings = load_settings()
    with pytest.raises(ValidationError):
        settings.log_level = "DEBUG"  # type: ignore[misc]


def test_example_config_documents_every_option_with_its_default() -> None:
    example = REPO / "config.example.toml"
    text = example.read_text(encoding="utf-8")
    secrets = ("discord_token", "discord_client_secret")
    options = {name for name in Settings.model_fields if name not in secrets}
    documented = set(re.findall(r"^(\w+) =", text, flags=re.MULTILINE))
    assert documented == options
    assert load_settings(example) == load_settings()


def test_database_url_defaults_to_the_sqlite_file_in_data_dir(tmp_path: Path) -> None:
    assert load_settings().database_url == "sqlite:///data/euchre.sqlite3"
    config = write(tmp_path / "c.toml", 'data_dir = "/srv/euchre"\ndatabase = "games.db"')
    settings = load_settings(config)
    assert settings.database_url == "sqlite:////srv/euchre/games.db"
    assert settings.database_path == Path("/srv/euchre/games.db")


def test_a_postgresql_url_has_no_file_and_is_shown_without_its_password(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("EUCHRE_DATABASE_URL", "postgresql://bot:s3cret@db:5432/euchre")
    settings = load_settings()
    assert settings.database_url == "postgresql://bot:s3cret@db:5432/euchre"
    assert settings.database_path is None
    assert settings.database_shown == "postgresql://bot:***@db:5432/euchre"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('database_url = "mysql://h/db"', "mysql: not a known database"),
        (
            'database_url = "sqlite:///x.db"\ndatabase = "y.db"',
            "set database_url or database, not both",
        ),
        ("shard_ids = [0]", "shard_ids needs shard_count"),
        ("shard_count = 2\nshard_ids = [2]", "shard 2 does not exist: shards are 0 to 1"),
        ("shard_count = 2\nshard_ids = [1]", "need one shared store"),
        ("shard_count = 2\nshard_ids = [0, 0]", "lists a shard twice"),
    ],
)
def test_database_and_shard_mistakes_are_one_clear_line(
    tmp_path: Path, text: str, message: str
) -> None:
    assert message in error_of(write(tmp_path / "c.toml", text))


def test_shards_split_over_processes_on_postgresql(tmp_path: Path) -> None:
    config = write(
        tmp_path / "c.toml",
        'database_url = "postgresql://bot@db/euchre"\nshard_count = 4\nshard_ids = [1, 3]',
    )
    settings = load_settings(config)
    assert (settings.shard_count, settings.shard_ids) == (4, (1, 3))


@pytest.mark.parametrize(
    ("toml", "hops"),
    [
        ("", 0),
        ("web_trust_forwarded = 2", 2),
        ("web_trust_forwarded = true", 1),
        ("web_trust_forwarded = false", 0),
        ('web_trust_forwarded = "yes"', 1),
    ],
)
def test_the_proxies_to_trust_are_a_number_and_the_old_switch_reads_as_one(
    tmp_path: Path, toml: str, hops: int
) -> None:
    assert load_settings(write(tmp_path / "c.toml", toml)).web_trust_forwarded == hops


def test_the_proxies_to_trust_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for value, hops in (("true", 1), ("off", 0), ("3", 3)):
        monkeypatch.setenv("EUCHRE_WEB_TRUST_FORWARDED", value)
        assert load_settings().web_trust_forwarded == hops
    monkeypatch.setenv("EUCHRE_WEB_TRUST_FORWARDED", "-1")
    assert "EUCHRE_WEB_TRUST_FORWARDED: Input should be greater than or equal to 0" in error_of()


def test_the_bots_web_pages_refuse_to_start_without_their_address(tmp_path: Path) -> None:
    message = error_of(write(tmp_path / "c.toml", "web_port = 8080"))
    assert "the web pages need web_base_url, their public address" in message
    both = 'web_port = 8080\nweb_base_url = "https://euchre.example.org"'
    assert load_settings(write(tmp_path / "d.toml", both)).web_port == 8080


@pytest.mark.parametrize(
    ("variables", "source", "message"),
    [
        ({"EUCHRE_WEB_PORT": "8080"}, "environment variable EUCHRE_WEB_PORT", "the web pages"),
        ({"EUCHRE_SHARD_IDS": "[1]"}, "environment variable EUCHRE_SHARD_IDS", "shard_ids needs"),
        (
            {"EUCHRE_DATABASE": "x.db", "EUCHRE_DATABASE_URL": "sqlite:///y.db"},
            "environment variables EUCHRE_DATABASE_URL and EUCHRE_DATABASE",
            "set database_url or database, not both",
        ),
    ],
)
def test_options_set_together_wrongly_name_their_variables_without_a_file(
    monkeypatch: pytest.MonkeyPatch, variables: dict[str, str], source: str, message: str
) -> None:
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    assert error_of().startswith(f"{source}: {message}")


def test_options_set_together_wrongly_name_the_file_only_for_what_it_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = write(tmp_path / "config.toml", 'web_port = 1\nlog_level = "INFO"')
    monkeypatch.setenv("EUCHRE_WEB_PORT", "8080")  # over the file's
    assert error_of().startswith("environment variable EUCHRE_WEB_PORT: the web pages need")
    monkeypatch.delenv("EUCHRE_WEB_PORT")
    assert error_of().startswith("config.toml: the web pages need")
    write(config, 'database = "x.db"\nshard_count = 2')
    monkeypatch.setenv("EUCHRE_DATABASE_URL", "sqlite:///y.db")
    assert error_of().startswith(
        "config.toml and environment variable EUCHRE_DATABASE_URL: set database_url or database"
    )
    monkeypatch.delenv("EUCHRE_DATABASE_URL")
    monkeypatch.setenv("EUCHRE_SHARD_IDS", "[1]")
    assert error_of().startswith(
        "config.toml and environment variable EUCHRE_SHARD_IDS: shard_ids splits the bot"
    )


def test_a_union_option_says_what_it_takes_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    takes = 'Input should be a whole number from 0 to 256, or "auto" (see config.example.toml)'
    config = write(tmp_path / "c.toml", 'search_workers = "many"')
    assert error_of(config) == f"{config}: search_workers = 'many': {takes}"
    config = write(tmp_path / "c.toml", "search_workers = 300")
    assert error_of(config) == f"{config}: search_workers = 300: {takes}"
    monkeypatch.setenv("EUCHRE_SEARCH_WORKERS", "many")
    assert error_of() == f"environment variable EUCHRE_SEARCH_WORKERS: {takes}"


def test_a_validators_message_is_said_without_pydantics_prefix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = write(tmp_path / "c.toml", 'database_url = "mysql://x"')
    assert error_of(config) == (
        f"{config}: database_url = 'mysql://x': mysql: not a known database; use "
        "sqlite:///PATH or postgresql://user:password@host/database (see config.example.toml)"
    )
    monkeypatch.setenv("EUCHRE_DATABASE_URL", "sqlite://relative.db")
    assert error_of().startswith(
        "environment variable EUCHRE_DATABASE_URL: sqlite://relative.db: an SQLite URL is "
        "sqlite:/// and the file's path, as in sqlite:///data/euchre.sqlite3"
    )


def test_no_option_shows_pydantics_insides(tmp_path: Path) -> None:
    options = [field for field in Settings.model_fields if not field.startswith("discord_")]
    leaks = []
    for option in options:
        for value in ('"many"', "-1", "1.5", '[1, "x"]', '""', "{ a = 1 }", "1e30"):
            config = write(tmp_path / "c.toml", f"{option} = {value}")
            try:
                load_settings(config)
            except ConfigError as error:
                said = str(error)
                assert said.startswith(f"{config}: {option}")
                insides = ("Value error", "constrained-", "literal[", "<class", "function-")
                leaks += [said for inside in insides if inside in said]
    assert leaks == []
