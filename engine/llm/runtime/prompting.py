"""Prompt assembly from pieces, so that untrusted text never becomes a control token.

llama-cpp-python renders a whole chat prompt to one string and tokenizes it with special
tokens on: a question containing ``<end_of_turn>`` would then end the turn. Here the chat
template is rendered (in Jinja's immutable sandbox, CVE-2024-34359) with each message's
content replaced by a random placeholder; the rendered text is split at the placeholders,
template pieces are tokenized with special tokens on and content pieces with them off.
"""

from __future__ import annotations

import re
import secrets
from typing import Protocol

from engine.errors import UserError
from engine.llm.types import Message, Request


class Tokenizer(Protocol):
    bos: int
    eos: int
    add_bos: bool
    chat_template: str | None

    def tokenize(self, text: str, *, special: bool = False, add_bos: bool = False) -> list[int]: ...

    def token_text(self, token: int) -> str: ...


def render_chat_pieces(
    template: str, messages: tuple[Message, ...], *, bos_token: str, eos_token: str
) -> list[tuple[str, bool]]:
    """``[(text, is_template_text), ...]`` for a chat ending in an open assistant turn."""
    # lazy: jinja2 is slow to import
    from jinja2.exceptions import TemplateError
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    nonce = secrets.token_hex(8)
    # private-use delimiters: str.strip() and Jinja's trim treat \x1c-\x1f as whitespace
    holders = [f"\ue000{nonce}:{i}\ue001" for i in range(len(messages))]

    def raise_exception(message):
        raise TemplateError(message)

    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols"]
    )
    try:
        rendered = env.from_string(template).render(
            messages=[{"role": m.role, "content": h} for m, h in zip(messages, holders)],
            bos_token=bos_token,
            eos_token=eos_token,
            add_generation_prompt=True,
            raise_exception=raise_exception,
        )
    except Exception as exc:  # any template failure is the template's, not ours
        raise UserError(f"the model's chat template failed: {exc}") from None
    parts = re.split(f"\ue000{nonce}:(\\d+)\ue001", rendered)
    seen = [int(i) for i in parts[1::2]]
    if sorted(seen) != list(range(len(messages))):
        raise UserError(
            "the chat template alters or drops message text; prompts cannot be "
            "assembled safely with it (use a completion prompt instead)"
        )
    pieces: list[tuple[str, bool]] = []
    for i, part in enumerate(parts):
        if i % 2 == 0:
            if part:
                pieces.append((part, True))
        else:
            pieces.append((messages[int(part)].content, False))
    return pieces


def plain_transcript(messages: tuple[Message, ...]) -> str:
    """How a chat reads to a base model without a template."""
    lines = []
    for m in messages:
        if m.role == "system":
            lines.append(m.content.strip() + "\n")
        else:
            lines.append(f"{m.role.capitalize()}: {m.content.strip()}")
    return "\n".join(lines) + "\nAssistant:"


def prompt_tokens(tok: Tokenizer, request: Request) -> list[int]:
    """The token ids a request is decoded from."""
    bos = [tok.bos] if tok.add_bos and tok.bos >= 0 else []
    if request.prompt is not None:
        return bos + tok.tokenize(request.prompt, special=False)
    messages = request.messages or ()  # a Request holds exactly one of prompt or messages
    if not tok.chat_template:
        return bos + tok.tokenize(plain_transcript(messages), special=False)
    pieces = render_chat_pieces(
        tok.chat_template,
        messages,
        bos_token=tok.token_text(tok.bos) if tok.bos >= 0 else "",
        eos_token=tok.token_text(tok.eos) if tok.eos >= 0 else "",
    )
    tokens: list[int] = []
    for text, is_template in pieces:
        tokens += tok.tokenize(text, special=is_template)
    if bos and (not tokens or tokens[0] != tok.bos):
        tokens = bos + tokens
    return tokens
