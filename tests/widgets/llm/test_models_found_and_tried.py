"""Models the user already has, through the Models panel: "Find models on this computer" on
a temporary home laid out as the tools keep their files, added in place; a test prompt to
the embedded model and to an endpoint (the real llama-cpp-python server on 127.0.0.1)."""

from __future__ import annotations

import shutil

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import QApplication, QDialog

from engine.llm.models.embedded_model import EMBEDDED_NAME, embedded_sha256
from engine.llm.models.registry import ensure_embedded_default, register_endpoint
from tests.engine.llm.test_llm_endpoint import real_llama_server
from tests.engine.llm.test_model_discovery import build_stores
from widgets.llm.models_panel import ModelsPanel

TOOL_VARIABLES = ("OLLAMA_MODELS", "HF_HOME", "HF_HUB_CACHE", "XDG_DATA_HOME", "XDG_CONFIG_HOME",
                  "XDG_CACHE_HOME")  # fmt: skip


@pytest.fixture(autouse=True)
def _no_dialog_left_open(qapp):
    """The finder opens window-modal over a panel that is never shown: left open, it would
    block the mouse of every later test's windows."""
    yield
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, QDialog) and widget.isVisible():
            widget.reject()


def test_find_models_on_this_computer_and_add_one_in_place(
    panel, ws, embedded_gguf, tmp_path, monkeypatch, qtbot
):
    home = tmp_path / "home"
    build_stores(home, embedded_gguf, "Linux")
    monkeypatch.setenv("HOME", str(home))
    for name in TOOL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    qtbot.mouseClick(panel.find_button, Qt.MouseButton.LeftButton)
    finder = panel.finder
    assert finder is not None and finder.isVisible()
    sources = sorted(finder.table.item(r, 1).text() for r in range(finder.table.rowCount()))
    assert sources == ["GPT4All", "Hugging Face", "Jan", "LM Studio", "Ollama"]
    assert finder.status.text() == "5 models found, 5 not yet in this workspace."
    row = next(
        r for r in range(finder.table.rowCount()) if finder.table.item(r, 1).text() == "Ollama"
    )
    assert finder.table.item(row, 0).text() == "gemma3:270m"
    assert finder.table.item(row, 3).text() and finder.table.item(row, 4).text() == "gemma3"
    assert finder.table.item(row, 2).text().endswith("MiB")
    blob = finder.found[row]["path"]
    finder.table.item(row, 0).setCheckState(Qt.CheckState.Checked)
    progress = []
    panel.bridge.sig_task_progress.connect(lambda t: progress.append(t.note))
    qtbot.mouseClick(finder.add_button, Qt.MouseButton.LeftButton)
    assert "sha256" not in progress  # the blob's name is its digest: not read again
    assert panel.bridge.errors == []
    added = ws.query("SELECT * FROM models WHERE name = 'gemma3:270m'")[0]
    assert added["path"] == blob  # in place: Ollama's own blob, not a copy
    assert added["sha256"] == embedded_sha256() and added["architecture"] == "gemma3"
    finder = panel.find_models_dialog()  # searched again: marked as added, not offered
    row = next(
        r for r in range(finder.table.rowCount()) if finder.table.item(r, 1).text() == "Ollama"
    )
    assert finder.table.item(row, 0).text() == "gemma3:270m (already added)"
    assert not finder.table.item(row, 0).flags() & Qt.ItemFlag.ItemIsEnabled


def test_a_folder_the_user_adds_is_searched_and_remembered(
    panel, ws, sync_bridge, embedded_gguf, tmp_path, monkeypatch, qtbot
):
    monkeypatch.setenv("HOME", str(tmp_path / "empty home"))
    for name in TOOL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    finder = panel.find_models_dialog()
    assert finder.table.rowCount() == 0 and "No GGUF models found" in finder.status.text()
    (tmp_path / "mine").mkdir()
    shutil.copy(embedded_gguf, tmp_path / "mine" / "my-gemma.gguf")
    with qtbot.waitSignal(panel.sig_model_folders_changed) as remembered:
        finder.add_folder(tmp_path / "mine")
    assert finder.table.rowCount() == 1
    assert finder.table.item(0, 0).text() == "my-gemma"
    assert finder.table.item(0, 1).text() == "your folder"
    assert finder.status.text() == "1 model found, 1 not yet in this workspace."
    assert remembered.args[0] == [str(tmp_path / "mine")]
    later = ModelsPanel(ws, sync_bridge, model_folders=remembered.args[0])  # next start
    qtbot.addWidget(later)
    assert later.find_models_dialog().table.rowCount() == 1


def _select(panel, name: str) -> None:
    panel.model.reload()
    row = next(i for i, r in enumerate(panel.model.rows) if r["name"] == name)
    panel.view.selectionModel().setCurrentIndex(
        panel.model.index(row, 0),
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
    )


def test_a_test_prompt_to_the_embedded_model(panel, ws, embedded_gguf, qtbot):
    ensure_embedded_default(ws)
    _select(panel, EMBEDDED_NAME)
    box = panel.try_box
    assert box.send_button.isEnabled()
    box.prompt.setPlainText("What is the capital of Bangladesh?")
    box.max_tokens.setValue(12)
    qtbot.mouseClick(box.send_button, Qt.MouseButton.LeftButton)
    assert panel.bridge.errors == []
    result = box.result
    assert result is not None and result["text"].strip() == box.reply.toPlainText().strip()
    assert 0 < result["completion_tokens"] <= 12 and result["tokens_per_second"] > 0
    # the embedded Gemma 3 270M file carries no chat template: said, not hidden
    assert result["template"] == {"source": "none", "family": "plain transcript", "text": ""}
    assert "tokens/s" in box.info.text()
    assert "chat template: plain transcript (the model has none" in box.info.text()


def test_an_empty_prompt_is_not_sent(panel, ws, embedded_gguf):
    ensure_embedded_default(ws)
    _select(panel, EMBEDDED_NAME)
    before = len(panel.bridge.tasks())
    panel.try_box.send()
    assert panel.try_box.info.text() == "Type a prompt first."
    assert len(panel.bridge.tasks()) == before


@pytest.mark.slow
def test_a_test_prompt_to_a_real_llama_cpp_server(panel, ws, embedded_gguf, qtbot):
    # the file has no template: with the server's default one the reply is empty
    with real_llama_server(embedded_gguf, "--chat_format", "gemma") as url:
        register_endpoint(ws, "local server", [url + "/v1"], "gemma")
        _select(panel, "local server")
        box = panel.try_box
        box.prompt.setPlainText("Say hello.")
        box.max_tokens.setValue(8)
        qtbot.mouseClick(box.send_button, Qt.MouseButton.LeftButton)
        assert panel.bridge.errors == [] and box.result is not None, box.info.text()
        assert box.result["completion_tokens"] > 0 and box.reply.toPlainText(), box.result
        assert box.result["template"]["source"] == "server"
        assert "applied by the server" in box.info.text() and "tokens/s" in box.info.text()
