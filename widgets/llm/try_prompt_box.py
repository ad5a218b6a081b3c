"""TryPromptBox: type a prompt to the selected model, read its reply, its tokens/s and the
chat template it went through (the Models panel's check that a model works before a run).

The request runs through the bridge on the model's own lane (:func:`engine.llm.tasks.
try_prompt_at`); nothing is stored in the workspace.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.i18n import _, digits
from engine.llm import tasks as model_tasks
from engine.text.text_rules import visible
from engine.workspace.api import Workspace
from widgets.common.fonts import bengali_font
from widgets.common.task_bridge import TaskBridge, describe_error, model_lane

log = logging.getLogger(__name__)


def template_source(source: str) -> str:
    """Where the chat template came from, for people."""
    return {
        "gguf": _("the GGUF file's"),
        "load_params": _("saved with the model"),
        "none": _("the model has none: a plain User/Assistant transcript"),
        "server": _("applied by the server"),
    }.get(source, source)


class TryPromptBox(QGroupBox):
    sig_replied = Signal(dict)  # the reply, its counts and template

    def __init__(self, workspace: Workspace, bridge: TaskBridge, parent: QWidget | None = None):
        super().__init__(_("Try a prompt"), parent)
        self.ws, self.bridge = workspace, bridge
        self.model: dict | None = None
        self.result: dict | None = None
        self.prompt = QPlainTextEdit()
        self.prompt.setFont(bengali_font())
        self.prompt.setPlaceholderText(_("Type a prompt, e.g. বাংলাদেশের রাজধানী কোথায়?"))
        self.prompt.setMaximumHeight(70)
        self.max_tokens = QSpinBox()
        self.max_tokens.setRange(1, 4096)
        self.max_tokens.setValue(128)
        self.max_tokens.setPrefix(_("at most "))
        self.max_tokens.setSuffix(_(" tokens"))
        self.send_button = QPushButton(_("&Send"))
        self.send_button.clicked.connect(self.send)
        self.reply = QPlainTextEdit()
        self.reply.setReadOnly(True)
        self.reply.setFont(bengali_font())
        self.reply.setMaximumHeight(90)
        self.info = QLabel(_("Select a model to try."))
        self.info.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.prompt, 1)
        column = QVBoxLayout()
        column.addWidget(self.max_tokens)
        column.addWidget(self.send_button)
        column.addStretch(1)
        row.addLayout(column)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.reply)
        layout.addWidget(self.info)
        self.set_model(None)

    def set_model(self, model: dict | None) -> None:
        self.model = model
        self.send_button.setEnabled(model is not None)
        self.info.setText(
            _("Select a model to try.")
            if model is None
            else _("The prompt goes to {model}.").format(model=model["name"])
        )

    def send(self) -> None:
        if self.model is None:
            return
        if not self.prompt.toPlainText().strip():
            self.info.setText(_("Type a prompt first."))
            return
        self.send_button.setEnabled(False)
        self.reply.clear()
        self.info.setText(_("Waiting for {model}…").format(model=self.model["name"]))
        self.bridge.run(
            model_tasks.try_prompt_at,
            args=(str(self.ws.path), self.model["id"], self.prompt.toPlainText()),
            kwargs={"max_tokens": self.max_tokens.value()},
            label=_("Test prompt to {model}").format(model=self.model["name"]),
            lane=model_lane(self.model["id"]),
            on_done=self.show_reply,
            on_error=self._failed,
        )

    def show_reply(self, result: dict) -> None:
        self.result = result
        self.send_button.setEnabled(self.model is not None)
        self.reply.setPlainText(visible(result["text"]))  # hidden characters shown
        template = result["template"]
        rate = result["tokens_per_second"]
        self.info.setText(
            _("{n} tokens in {s} s · {rate} tokens/s · chat template: {family} ({source})").format(
                n=digits(result["completion_tokens"]),
                s=digits(f"{result['seconds']:.1f}"),
                rate="—" if rate is None else digits(f"{rate:.1f}"),
                family=template["family"],
                source=template_source(template["source"]),
            )
        )
        self.info.setToolTip(template["text"][:2000])
        self.sig_replied.emit(result)

    def _failed(self, exc: BaseException) -> None:
        self.send_button.setEnabled(self.model is not None)
        self.info.setText(describe_error(exc, one_line=True))
