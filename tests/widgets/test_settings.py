"""User settings: typed, versioned JSON; a broken file never stops the program."""

from __future__ import annotations

import json
import logging

from app.settings import (
    MAX_RECENT,
    SETTINGS_VERSION,
    Settings,
    load_settings,
    save_settings,
    settings_path,
)


def test_settings_live_under_the_config_dir_override(tmp_path, monkeypatch):
    monkeypatch.setenv("UPABHASHA_CONFIG_DIR", str(tmp_path))
    assert settings_path() == tmp_path / "settings.json"


def test_round_trip(tmp_path):
    path = tmp_path / "settings.json"
    settings = Settings(reviewer_name="রহিম", default_dialects=["sylhet", "chittagong"])
    settings.add_recent(tmp_path / "a.sqlite")
    save_settings(settings, path)
    loaded = load_settings(path)
    assert loaded == settings
    assert json.loads(path.read_text(encoding="utf-8"))["version"] == SETTINGS_VERSION
    assert "রহিম" in path.read_text(encoding="utf-8")  # stored readable, not \\u-escaped


def test_recent_workspaces_most_recent_first_without_duplicates(tmp_path):
    settings = Settings()
    for i in range(MAX_RECENT + 3):
        settings.add_recent(tmp_path / f"{i}.sqlite")
    settings.add_recent(tmp_path / "5.sqlite")
    assert len(settings.recent_workspaces) == MAX_RECENT
    assert settings.recent_workspaces[0].endswith("5.sqlite")
    assert len(set(settings.recent_workspaces)) == MAX_RECENT
    settings.forget_recent(tmp_path / "5.sqlite")
    assert not any(p.endswith("/5.sqlite") for p in settings.recent_workspaces)


def test_corrupt_file_falls_back_to_defaults_with_a_warning(tmp_path, caplog):
    path = tmp_path / "settings.json"
    path.write_text('{"reviewer_name": "half a fi', encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        assert load_settings(path) == Settings()
    assert "unreadable" in caplog.text


def test_wrong_typed_fields_are_dropped_others_kept(tmp_path, caplog):
    path = tmp_path / "settings.json"
    path.write_text(
        json.dumps(
            {"version": 1, "reviewer_name": 42, "recent_workspaces": ["/x"], "unknown_key": True}
        ),
        encoding="utf-8",
    )
    with caplog.at_level(logging.WARNING):
        loaded = load_settings(path)
    assert loaded.reviewer_name == "" and loaded.recent_workspaces == ["/x"]
    assert "reviewer_name" in caplog.text


def test_missing_file_gives_defaults(tmp_path):
    assert load_settings(tmp_path / "absent.json") == Settings()
