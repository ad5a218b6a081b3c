"""The Models panel's endpoint form sets an endpoint's connect and read timeout and retries as
``upabhasha models add URL --connect-timeout S --read-timeout S --max-retries N`` does: the
same defaults stated, the same ranges, stored the same way; names through the name rule."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox

from app.cli import main
from tests.widgets.keyboard import retype, type_text
from widgets.llm.endpoint_dialog import EndpointDialog

URL = "http://10.0.0.5:8000/v1"


def _open_form(panel, qtbot, button) -> EndpointDialog:
    panel.show()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    dialog = panel.findChildren(EndpointDialog)[-1]
    qtbot.waitUntil(dialog.isVisible, timeout=10_000)
    return dialog


def _ok(dialog, qtbot) -> None:
    qtbot.mouseClick(
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton
    )


def _stored(ws, name: str) -> dict:
    return json.loads(ws.scalar("SELECT load_params FROM models WHERE name = ?", (name,)))


def test_typed_bounds_are_stored_as_the_cli_stores_them(panel, ws, qtbot):
    dialog = _open_form(panel, qtbot, panel.add_endpoint_button)
    note = dialog.limits_note.text()
    assert "Defaults: 10 to connect, 60 for a whole reply, 4 retries" in note
    assert (dialog.connect_timeout.value(), dialog.read_timeout.value()) == (10, 60)
    QTest.keyClicks(dialog.name, "lab pool")
    QTest.keyClicks(dialog.base_urls, URL)
    QTest.keyClicks(dialog.api_model, "qwen")
    retype(dialog.connect_timeout, "2.5")
    retype(dialog.read_timeout, "120")
    retype(dialog.max_retries, "1")
    assert dialog.isVisible()  # Enter in a spin box settles the value, it does not press OK
    _ok(dialog, qtbot)
    qtbot.waitUntil(lambda: ws.scalar("SELECT count(*) FROM models") == 1, timeout=10_000)
    gui = _stored(ws, "lab pool")
    assert gui == {"connect_timeout_s": 2.5, "read_timeout_s": 120, "max_retries": 1}
    argv = ["-w", str(ws.path), "models", "add", URL, "--api-model", "qwen", "--name", "cli"]
    assert (
        main([*argv, "--connect-timeout", "2.5", "--read-timeout", "120", "--max-retries", "1"])
        == 0
    )
    assert _stored(ws, "cli") == gui


@pytest.mark.parametrize(
    "box,typed,reason",
    [
        (
            "read_timeout",
            "5000",
            "“Read timeout” must be more than 0 and at most 3600 seconds, not 5000",
        ),
        ("connect_timeout", "0", "“Connect timeout” must be more than 0"),
        ("max_retries", "25", "“Retries of a failed request” must be a whole number from 0 to 20"),
    ],
)
def test_a_bound_out_of_range_is_refused_with_the_reason(panel, ws, qtbot, box, typed, reason):
    dialog = _open_form(panel, qtbot, panel.add_endpoint_button)
    QTest.keyClicks(dialog.name, "lab")
    QTest.keyClicks(dialog.base_urls, URL)
    QTest.keyClicks(dialog.api_model, "qwen")
    retype(getattr(dialog, box), typed)
    _ok(dialog, qtbot)
    assert dialog.isVisible() and reason in dialog.error.text()
    assert ws.scalar("SELECT count(*) FROM models") == 0


def test_a_name_with_a_bidi_control_is_refused(panel, ws, qtbot):
    dialog = _open_form(panel, qtbot, panel.add_endpoint_button)
    type_text(dialog.name, "lab\u202elivE")
    QTest.keyClicks(dialog.base_urls, URL)
    QTest.keyClicks(dialog.api_model, "qwen")
    _ok(dialog, qtbot)
    assert dialog.isVisible() and "bidirectional control U+202E" in dialog.error.text()
    assert ws.scalar("SELECT count(*) FROM models") == 0


def test_editing_an_endpoint_shows_and_changes_its_bounds_and_keeps_its_key(
    panel, ws, qtbot, memory_keyring
):
    panel.add_endpoint("hosted", [URL], "qwen", "sk-1", limits={"read_timeout_s": 90})
    assert not panel.edit_endpoint_button.isEnabled()
    panel.view.selectRow(0)
    assert panel.edit_endpoint_button.isEnabled()
    dialog = _open_form(panel, qtbot, panel.edit_endpoint_button)
    assert dialog.name.isReadOnly() and dialog.name.text() == "hosted"
    assert dialog.read_timeout.value() == 90 and dialog.connect_timeout.value() == 10
    retype(dialog.read_timeout, "30")
    retype(dialog.connect_timeout, "5")
    _ok(dialog, qtbot)
    qtbot.waitUntil(lambda: _stored(ws, "hosted").get("read_timeout_s") == 30, timeout=10_000)
    assert _stored(ws, "hosted") == {"connect_timeout_s": 5, "read_timeout_s": 30}
    row = ws.query("SELECT * FROM models WHERE name = 'hosted'")[0]
    assert row["keyring_service"] == "upabhasha:hosted"
    assert ws.scalar("SELECT count(*) FROM models") == 1
