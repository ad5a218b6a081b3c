"""A test prompt to one model: its reply, its speed and the chat template it was sent with.

The Models panel's "Try a prompt": the same backend a run uses (local GGUF or
endpoint), one greedy chat request, nothing stored. The template is said the way it is
used: a local model's own (``tokenizer.chat_template`` of its GGUF, or the one saved in its
load_params), a plain User:/Assistant: transcript when it has none, and for an endpoint
the server's, read from its ``/props`` where it reports it (llama.cpp's server does).
"""

from __future__ import annotations

import logging
import time
from typing import TypedDict

from engine.errors import UserError
from engine.llm.models.gguf_info import inspect_gguf
from engine.llm.runtime.factory import local_options, open_backend
from engine.llm.types import Message, Request, Sampler

log = logging.getLogger(__name__)

# a known template family by a marker its Jinja text contains (for a short description)
TEMPLATE_MARKERS = (
    ("<start_of_turn>", "Gemma"),
    ("<|start_header_id|>", "Llama 3"),
    ("<|im_start|>", "ChatML"),
    ("[INST]", "Llama 2 / Mistral"),
    ("<|user|>", "Zephyr / Phi"),
    ("<|User|>", "DeepSeek"),
)


def template_family(template: str) -> str:
    return next((name for marker, name in TEMPLATE_MARKERS if marker in template), "custom")


class TemplateInfo(TypedDict):
    """:func:`describe_template`: where the chat template comes from, its family, its text."""

    source: str  # load_params, gguf, none or server
    family: str
    text: str


class TryPromptResult(TypedDict):
    """:func:`try_prompt`: the reply and what it took (tokens per second None: not timed)."""

    model: str | None
    text: str
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str
    seconds: float
    tokens_per_second: float | None
    template: TemplateInfo


def describe_template(model_row: dict, *, timeout_s: float = 2.0) -> TemplateInfo:
    """``{"source", "family", "text"}``: which chat template a chat request goes through."""
    if model_row.get("kind") == "gguf":
        saved = local_options(model_row).get("chat_template")
        if saved:
            return {"source": "load_params", "family": template_family(saved), "text": saved}
        template = inspect_gguf(model_row["path"]).chat_template
        if template:
            return {"source": "gguf", "family": template_family(template), "text": template}
        return {"source": "none", "family": "plain transcript", "text": ""}
    return _server_template(model_row, timeout_s)


def _server_template(model_row: dict, timeout_s: float) -> TemplateInfo:
    import json

    import httpx

    urls = json.loads(model_row.get("base_urls") or "[]")
    for url in urls:
        root = url.rstrip("/").removesuffix("/v1")
        try:
            response = httpx.get(root + "/props", timeout=timeout_s)
            template = response.json().get("chat_template") if response.is_success else None
        except (httpx.HTTPError, ValueError, AttributeError):
            template = None
        if template:
            return {"source": "server", "family": template_family(template), "text": template}
    return {"source": "server", "family": "the server's own (not reported)", "text": ""}


def try_prompt(
    model_row: dict, prompt: str, *, max_tokens: int = 128, cancelled=None
) -> TryPromptResult:
    """Send ``prompt`` as one user message (greedy); the reply, token counts, seconds,
    tokens per second and the template (:func:`describe_template`)."""
    if not prompt.strip():
        raise UserError("type a prompt first")
    template = describe_template(model_row)
    request = Request(
        key="try",
        messages=(Message("user", prompt),),
        sampler=Sampler(max_tokens=max_tokens),
    )
    started = time.perf_counter()
    backend = open_backend(model_row)
    try:
        results = list(backend.generate([request], cancelled=cancelled))
    finally:
        backend.close()
    seconds = time.perf_counter() - started
    if not results:
        raise UserError("cancelled before the model replied")
    result = results[0]
    if not result.ok:
        raise UserError(f"model {model_row.get('name')!r}: {result.error}")
    log.info(
        "test prompt to %s: %d tokens in %.2f s",
        model_row.get("name"),
        result.completion_tokens,
        seconds,
    )
    # the request's own time where the backend measures it (a local model's load excluded)
    decode_s = result.elapsed_ms / 1000 if result.elapsed_ms else seconds
    return {
        "model": model_row.get("name"),
        "text": result.text or "",
        "prompt_tokens": result.prompt_tokens,
        "completion_tokens": result.completion_tokens,
        "finish_reason": result.finish_reason,
        "seconds": seconds,
        "tokens_per_second": result.completion_tokens / decode_s if decode_s > 0 else None,
        "template": template,
    }
