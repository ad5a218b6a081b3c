"""Build the judge prompt from ``resources/prompts/judge.txt`` (data, versioned by hash).

The template has two parts split by a line ``=== user ===``: the system part holds the
rubric and every instruction; the user part holds the four untrusted texts, each
neutralized (:mod:`engine.judging.neutralize`) and fenced between
``⟦BEGIN <label> <nonce>⟧`` and ``⟦END <label> <nonce>⟧`` lines. The nonce is a hash of
the fenced texts (:func:`content_nonce`: the same item gives the same prompt in every run),
named once in the user part, and never occurs in the untrusted texts, so an answer cannot
close its fence (it would have to contain a hash of itself). The two answers are also
spotlighted (:mod:`engine.judging.spotlight`: datamarked, with the instructions saying so;
``$spotlight`` in the system part places that explanation, else it is appended). The
system part depends only on the rubric and spotlighting, so it is the same for every item
of a run (a shareable prefix). Placeholders use :class:`string.Template` (``$name``); substituted
values are not re-scanned, so text inside them cannot inject placeholders.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from string import Template

from engine.errors import UserError
from engine.files.user_files import JUDGE_TEMPLATE, read_user_text
from engine.judging.neutralize import (
    FENCE_CLOSE,
    FENCE_LABELS,
    FENCE_OPEN,
    contains_control_token,
    neutralize,
)
from engine.judging.rubric import Rubric
from engine.judging.spotlight import EXPLANATION, SPOTLIT_LABELS, datamark
from engine.llm.types import Message, Request, Sampler

USER_SPLIT = "=== user ==="
_BLANK_LINES = re.compile(r"\n{3,}")
NONCE_BYTES = 8
SYSTEM_FIELDS = ("likert", "criteria", "confidence", "max_chars", "fields", "spotlight")
USER_FIELDS = ("nonce", "dialect_name") + FENCE_LABELS


@dataclass(frozen=True)
class JudgeTemplate:
    system: str
    user: str
    content_hash: str
    source: str

    @property
    def version(self) -> str:
        return f"{Path(self.source).name}@{self.content_hash[:12]}"


@dataclass(frozen=True)
class JudgePrompt:
    system: str
    user: str
    nonce: str
    bodies: dict[str, str]  # label -> the neutralized text placed inside its fence

    def messages(self) -> tuple[Message, ...]:
        return (Message("system", self.system), Message("user", self.user))

    def request(self, key: str, sampler: Sampler, json_schema: dict) -> Request:
        return Request(key=key, messages=self.messages(), sampler=sampler, json_schema=json_schema)


BUNDLED_TEMPLATE = "judge.txt"  # the bundled template's file name, in run cards


def bundled_template_path():
    return files("resources") / "prompts" / BUNDLED_TEMPLATE


def load_judge_template(path: str | Path | None = None) -> JudgeTemplate:
    """Read and check a judge template; ``None`` loads the bundled one."""
    source = bundled_template_path() if path is None else Path(path)
    return judge_template(judge_template_text(path), str(source))


def judge_template_text(path: str | Path | None = None) -> str:
    """A judge template file's text, checked (an error names the file); ``None``: the
    bundled one. What a step's request carries, so the request holds the template itself."""
    if path is None:
        return bundled_template_path().read_text(encoding="utf-8")
    text = read_user_text(path, JUDGE_TEMPLATE)
    judge_template(text, str(path))
    return text


def judge_template(text: str, source: str) -> JudgeTemplate:
    """The template ``text`` (from ``source``: its file name goes into run cards), checked:
    one user part holding every fenced text, no unknown placeholder."""
    if text.count(USER_SPLIT) != 1:
        raise UserError(f"{source}: the judge template needs exactly one '{USER_SPLIT}' line")
    system, user = (part.strip() for part in text.split(USER_SPLIT))
    for label in FENCE_LABELS:
        if f"${label}" not in user:
            raise UserError(f"{source}: the user part must contain ${label}")
        if f"${label}" in system:
            raise UserError(f"{source}: ${label} belongs in the user part, not the instructions")
    try:  # fail at load, naming the file, rather than on the first item judged
        Template(system).substitute(dict.fromkeys(SYSTEM_FIELDS, "x"))
        Template(user).substitute(dict.fromkeys(USER_FIELDS, "x"))
    except (KeyError, ValueError) as exc:
        raise UserError(
            f"{source}: unknown or malformed placeholder {exc} (the instructions "
            f"may use {', '.join(SYSTEM_FIELDS)}; the user part "
            f"{', '.join(USER_FIELDS)})"
        ) from None
    return JudgeTemplate(system, user, hashlib.sha256(text.encode("utf-8")).hexdigest(), source)


def fence(label: str, body: str, nonce: str) -> str:
    return (
        f"{FENCE_OPEN}BEGIN {label} {nonce}{FENCE_CLOSE}\n{body}\n"
        f"{FENCE_OPEN}END {label} {nonce}{FENCE_CLOSE}"
    )


def content_nonce(bodies: dict[str, str], dialect: str, counter: int = 0) -> str:
    """The fence nonce, derived from the texts it fences: the same item gets the same prompt
    in every run (a random nonce made judge replies differ between identical runs),
    and a text cannot carry it, since it would have to contain a hash of itself."""
    digest = hashlib.sha256()
    for label in sorted(bodies):
        digest.update(f"{label}\x00{bodies[label]}\x00".encode())
    digest.update(f"{dialect}\x00{counter}".encode())
    return digest.hexdigest()[: 2 * NONCE_BYTES]


def build_judge_prompt(
    template: JudgeTemplate,
    rubric: Rubric,
    *,
    standard_question: str,
    standard_answer: str,
    dialect_question: str,
    dialect_answer: str,
    dialect_name: str,
    nonce: str | None = None,
    spotlight: bool = True,
) -> JudgePrompt:
    raw = {
        "standard_question": standard_question,
        "standard_answer": standard_answer,
        "dialect_question": dialect_question,
        "dialect_answer": dialect_answer,
    }
    bodies = {label: neutralize(text) for label, text in raw.items()}
    if spotlight:
        bodies |= {label: datamark(bodies[label]) for label in SPOTLIT_LABELS}
    dialect = neutralize(dialect_name).replace("\n", " ")[:60]
    counter = 0
    while nonce is None or any(nonce in t for t in (*bodies.values(), dialect)):
        nonce = content_nonce(bodies, dialect, counter)
        counter += 1
    criteria = "\n".join(
        f'{i}. {c.key} — {c.name} (weight {c.weight:g}): "{c.statement}"'
        for i, c in enumerate(rubric.criteria, 1)
    )
    # The instructions depend only on the rubric: identical for every item of a judge run,
    # so backends can share their prefix. Per-item values (nonce, dialect) go to the user part.
    system = Template(template.system).substitute(
        max_chars=rubric.reasoning_max_chars,
        likert="\n".join(f"{v} = {a}" for v, a in rubric.likert),
        confidence="\n".join(f"{v} = {a}" for v, a in rubric.confidence),
        criteria=criteria,
        fields=", ".join(f'"{k}"' for k in rubric.keys) + ' (0-5) and "confidence" (1-5)',
        spotlight=EXPLANATION if spotlight else "",
    )
    if spotlight and "$spotlight" not in template.system:
        system = f"{system}\n\n{EXPLANATION}"
    system = _BLANK_LINES.sub("\n\n", system)  # an empty $spotlight leaves no gap
    user = Template(template.user).substitute(
        dialect_name=dialect,
        nonce=nonce,
        **{label: fence(label, bodies[label], nonce) for label in bodies},
    )
    prompt = JudgePrompt(system, user, nonce, bodies)
    _check_structure(prompt)
    return prompt


def _check_structure(prompt: JudgePrompt) -> None:
    """Defence in depth: the fences are exactly where the builder put them."""
    for label, body in prompt.bodies.items():
        if (
            FENCE_OPEN in body
            or FENCE_CLOSE in body
            or prompt.nonce in body
            or contains_control_token(body)
        ):
            raise AssertionError(f"neutralization failed for {label}")
        if prompt.user.count(fence(label, body, prompt.nonce)) != 1:
            raise AssertionError(f"fence for {label} is not intact")
    if prompt.user.count(prompt.nonce) != 2 * len(prompt.bodies) + 1:
        raise AssertionError("the nonce appears outside the fence lines and its one mention")


def pair_prompt(
    template: JudgeTemplate,
    rubric: Rubric,
    pair: dict,
    *,
    spotlight: bool = True,
    dialect_answer: str | None = None,
) -> JudgePrompt:
    """The judge prompt of an answer pair (a row of :func:`engine.judging.store.answer_pairs`),
    optionally with another ``dialect_answer`` (the disagreement check's stripped answer)."""
    return build_judge_prompt(
        template,
        rubric,
        standard_question=pair["standard_question"],
        standard_answer=pair["standard_answer"],
        dialect_question=pair["dialect_question"],
        dialect_answer=pair["dialect_answer"] if dialect_answer is None else dialect_answer,
        dialect_name=pair["dialect_name"],
        spotlight=spotlight,
    )
