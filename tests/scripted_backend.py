"""A backend that answers every request with a script's reply: fault injection and planted
judges for the steps' own logic (the real model is tested elsewhere)."""

from __future__ import annotations

from collections.abc import Callable

from engine.llm.types import ModelInfo, Result


class ScriptedBackend:
    """Answers every request with ``reply(request)``; records what it was asked."""

    def __init__(self, reply: Callable):
        self.reply, self.seen, self.closed = reply, [], False

    def info(self):
        return ModelInfo(model_id="scripted", name="scripted", has_chat_template=True)

    def generate(self, requests, *, progress=None, cancelled=None):
        for req in requests:
            if cancelled and cancelled():
                return
            self.seen.append(req)
            yield Result(req.key, self.reply(req), prompt_tokens=1, completion_tokens=1)

    def close(self):
        self.closed = True
