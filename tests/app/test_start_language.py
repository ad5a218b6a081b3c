"""The first start follows the system's locale; a language chosen in the menu is kept."""

from __future__ import annotations

import pytest

from engine.i18n import system_language
from tests.app.first_window import start_window


def test_first_start_on_a_bengali_system_is_in_bengali(tmp_path):
    report = start_window(tmp_path, "bn_BD.UTF-8")
    assert report["language"] == "bn"
    assert "ফাইল (&F)" in report["menus"] and "দেখুন (&V)" in report["menus"]


def test_first_start_on_an_english_system_is_in_english(tmp_path):
    report = start_window(tmp_path, "en_US.UTF-8")
    assert report["language"] == "en"
    assert "&File" in report["menus"] and "&View" in report["menus"]


def test_english_chosen_in_the_menu_stays_english_on_a_bengali_system(tmp_path):
    report = start_window(tmp_path, "bn_BD.UTF-8", saved={"version": 2, "language": "en"})
    assert report["language"] == "en" and "&File" in report["menus"]


def test_english_saved_by_the_old_default_follows_a_bengali_system(tmp_path):
    """Version 1 saved "en" whether or not anyone chose it."""
    report = start_window(tmp_path, "bn_BD.UTF-8", saved={"version": 1, "language": "en"})
    assert report["language"] == "bn" and "ফাইল (&F)" in report["menus"]


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "bn_BD.UTF-8"}, "bn"),
        ({"LANG": "bn_IN"}, "bn"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LC_ALL": "en_US.UTF-8", "LANG": "bn_BD.UTF-8"}, "en"),
        ({"LC_MESSAGES": "bn_BD.UTF-8", "LANG": "en_US.UTF-8"}, "bn"),
        ({"LANGUAGE": "fr:bn", "LANG": "en_US.UTF-8"}, "bn"),
        ({"LANGUAGE": "", "LANG": "bn_BD.UTF-8"}, "bn"),
        ({}, None),
    ],
)
def test_system_language_follows_gettexts_order(environ, expected):
    assert system_language(environ) == expected
