"""The Models panel shows how each model takes a JSON schema, and finds it again for an
endpoint on a click: the real llama-cpp-python server on 127.0.0.1, which refuses
``json_schema`` and honours ``json_object`` with the schema."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from engine.llm.models.embedded_model import EMBEDDED_NAME
from engine.llm.models.registry import ensure_embedded_default, register_endpoint
from tests.engine.llm.test_llm_endpoint import real_llama_server
from tests.widgets.llm.test_models_found_and_tried import _select
from widgets.llm.models_model import COLUMNS

COLUMN = next(i for i, (key, _label) in enumerate(COLUMNS) if key == "structured_output")


def _cell(panel, name: str, role=Qt.ItemDataRole.DisplayRole):
    row = next(i for i, r in enumerate(panel.model.rows) if r["name"] == name)
    return panel.model.data(panel.model.index(row, COLUMN), role)


@pytest.mark.slow
def test_the_json_output_of_an_endpoint_is_found_on_a_click(panel, ws, embedded_gguf, qtbot):
    ensure_embedded_default(ws)
    with real_llama_server(embedded_gguf) as url:
        register_endpoint(ws, "local server", [url + "/v1"], "gemma")
        _select(panel, EMBEDDED_NAME)
        assert _cell(panel, EMBEDDED_NAME) == "grammar"
        assert not panel.probe_button.isEnabled()  # a local model is never probed
        _select(panel, "local server")
        assert _cell(panel, "local server") == "not probed yet"
        messages = []
        panel.sig_status_message.connect(messages.append)
        qtbot.mouseClick(panel.probe_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: _cell(panel, "local server") == "json_object")
    assert panel.bridge.errors == []
    assert messages[-1] == "local server takes JSON output as json_object"
    tooltip = _cell(panel, "local server", Qt.ItemDataRole.ToolTipRole)
    assert tooltip == "json_schema: refused, json_object: taken"
    saved = json.loads(ws.scalar("SELECT load_params FROM models WHERE name = 'local server'"))
    assert saved["structured_output"] == "json_object"
