"""Settings: every optional setting left empty means its default; bad values are quoted briefly."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import QUOTE_LIMIT, ConfigError, load_settings

DEFAULTS = load_settings({})

BLANKS = ["", " ", "\t", "  \n"]


@pytest.mark.parametrize("blank", BLANKS)
@pytest.mark.parametrize(
    ("name", "field"),
    [
        ("DEV_GUILD_ID", "dev_guild_id"),
        ("CHAUPAL_DATABASE", "database"),
        ("CHAUPAL_LOG_LEVEL", "log_level"),
        ("CHAUPAL_SNAPSHOT_EVERY", "snapshot_every"),
        ("CHAUPAL_RENDER_WORKERS", "render_workers"),
    ],
)
def test_an_empty_optional_setting_means_its_default(name: str, field: str, blank: str) -> None:
    # .env.example ships lines like "CHAUPAL_LOG_LEVEL=": that is "the default".
    settings = load_settings({name: blank})
    assert getattr(settings, field) == getattr(DEFAULTS, field)


def test_the_defaults() -> None:
    assert DEFAULTS.token is None
    assert DEFAULTS.dev_guild_id is None
    assert DEFAULTS.database == Path("data/chaupal.sqlite3")
    assert DEFAULTS.log_level == "INFO"
    assert DEFAULTS.snapshot_every == 25
    assert DEFAULTS.render_workers == 1


def test_an_empty_database_setting_is_not_the_current_folder() -> None:
    # Path("") is Path("."): the bot used to report "Cannot open the database .".
    assert load_settings({"CHAUPAL_DATABASE": ""}).database != Path(".")


def test_values_around_whitespace_are_read() -> None:
    settings = load_settings(
        {
            "DEV_GUILD_ID": " 42 ",
            "CHAUPAL_DATABASE": " games/x.sqlite3 ",
            "CHAUPAL_LOG_LEVEL": " debug ",
            "CHAUPAL_SNAPSHOT_EVERY": " 10 ",
            "CHAUPAL_RENDER_WORKERS": " 0 ",
        }
    )
    assert settings.dev_guild_id == 42
    assert settings.database == Path("games/x.sqlite3")
    assert settings.log_level == "DEBUG"
    assert settings.snapshot_every == 10
    assert settings.render_workers == 0


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DEV_GUILD_ID", "my server"),
        ("DEV_GUILD_ID", "-5"),
        ("DEV_GUILD_ID", "1_000"),
        ("CHAUPAL_LOG_LEVEL", "LOUD"),
        ("CHAUPAL_SNAPSHOT_EVERY", "0"),
        ("CHAUPAL_SNAPSHOT_EVERY", "ten"),
        ("CHAUPAL_SNAPSHOT_EVERY", "-1"),
        ("CHAUPAL_SNAPSHOT_EVERY", "٣"),  # int() reads Arabic-Indic digits
        ("CHAUPAL_RENDER_WORKERS", "²"),  # isdigit() is true, int() refuses it
        ("CHAUPAL_RENDER_WORKERS", "+2"),
        ("CHAUPAL_RENDER_WORKERS", "two"),
    ],
)
def test_a_bad_value_names_the_setting(name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        load_settings({name: value})


@pytest.mark.parametrize(
    "name",
    ["DEV_GUILD_ID", "CHAUPAL_LOG_LEVEL", "CHAUPAL_SNAPSHOT_EVERY", "CHAUPAL_RENDER_WORKERS"],
)
def test_a_bad_value_is_quoted_briefly(name: str) -> None:
    huge = "x" * 10_000
    with pytest.raises(ConfigError) as info:
        load_settings({name: huge})
    message = str(info.value)
    assert "xxxx" in message and "…" in message
    assert len(message) < QUOTE_LIMIT + 150


def test_a_long_number_is_refused_without_a_traceback() -> None:
    # int() of 5,000 digits raises its own ValueError about the string limit.
    with pytest.raises(ConfigError, match="CHAUPAL_SNAPSHOT_EVERY"):
        load_settings({"CHAUPAL_SNAPSHOT_EVERY": "9" * 5000})


def test_an_empty_setting_in_a_dotenv_file_means_its_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = [
        "DISCORD_TOKEN",
        "DEV_GUILD_ID",
        "CHAUPAL_DATABASE",
        "CHAUPAL_LOG_LEVEL",
        "CHAUPAL_SNAPSHOT_EVERY",
        "CHAUPAL_RENDER_WORKERS",
    ]
    for name in names:
        # setenv first: delenv of an unset name records nothing, so the values
        # load_dotenv puts in os.environ would outlive the test.
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    (tmp_path / ".env").write_text("".join(f"{name}=\n" for name in names))
    assert load_settings(dotenv_path=tmp_path / ".env") == DEFAULTS


def test_the_database_is_a_sqlite_file_or_a_postgresql_url() -> None:
    url = "postgresql://chaupal@db.example:5432/chaupal"
    assert load_settings({"CHAUPAL_DATABASE": f" {url} "}).database == url
    assert load_settings({"CHAUPAL_DATABASE": "postgres://u@h/d"}).database == "postgres://u@h/d"
    assert load_settings({"CHAUPAL_DATABASE": "sqlite:games/x.sqlite3"}).database == Path(
        "games/x.sqlite3"
    )
