"""The Activity's settings: on with the application's id, beside the pages, secrets from the
environment only; the table message offers it only then."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import ConfigError, load_settings
from bot.web.serve import activity_options_of

SERVED = 'activity_client_id = 42\nweb_port = 8080\nweb_base_url = "https://euchre.example"\n'


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("DISCORD_TOKEN", "DISCORD_CLIENT_SECRET", "EUCHRE_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def refusal(path: Path) -> str:
    with pytest.raises(ConfigError) as info:
        load_settings(path)
    return str(info.value)


def test_off_by_default_and_on_only_beside_the_pages(tmp_path: Path) -> None:
    assert not load_settings().serves_activity
    assert "activity_client_id needs web_port" in refusal(
        config(tmp_path, "activity_client_id = 42")
    )
    bad = config(tmp_path, SERVED + 'discord_api_url = "discord.com/api"')
    assert "https://discord.com/api/v10" in refusal(bad)
    settings = load_settings(
        config(tmp_path, SERVED + 'discord_api_url = "http://127.0.0.1:9/api/"')
    )
    assert settings.serves_activity and settings.discord_api_url == "http://127.0.0.1:9/api"


def test_the_secrets_come_from_the_environment_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "remove 'client_secret'" in refusal(config(tmp_path, SERVED + 'client_secret = "x"'))
    path = config(tmp_path, SERVED)
    with pytest.raises(ConfigError, match="DISCORD_CLIENT_SECRET"):
        activity_options_of(load_settings(path))
    monkeypatch.setenv("DISCORD_CLIENT_SECRET", " s3cret ")
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        activity_options_of(load_settings(path))
    monkeypatch.setenv("DISCORD_TOKEN", "bot-token")
    options = activity_options_of(load_settings(path))
    assert options is not None
    assert (options.client_id, options.client_secret, options.bot_token) == (
        42,
        "s3cret",
        "bot-token",
    )
    assert "s3cret" not in repr(load_settings(path))
