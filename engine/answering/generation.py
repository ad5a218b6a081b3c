"""Answer generation: every model answers the standard question and each dialect variant.

Prompts are data: ``resources/prompts/answer_<dialect>.txt``, each written in its dialect
and asking for the answer in standard Bengali (the paper's Sylhet prompt is the model), plus
``answer_standard.txt``. Lines starting with ``#`` are comments. A workspace may override
any of them with a file of the same name in its own prompt folder. The templates of every
dialect in the workspace, with their content hashes, go into the run card, so editing a
prompt makes a new run.

One run per model (``kind='answer'``); one item per variant (key ``v<variant id>``). Gold
variants by default; drafts or reviewed ones on request. Models are processed one after
the other, one local model loaded at a time; every run resumes where it stopped.
"""

from __future__ import annotations

import hashlib
import logging
import os
from dataclasses import dataclass
from importlib.abc import Traversable
from importlib.resources import files
from pathlib import Path
from string import Template

from engine.errors import Setting, UserError, setting
from engine.files.user_files import ANSWER_PROMPT, read_user_text
from engine.i18n import N_
from engine.llm.runs.model_runs import PlannedRun, RunSummary, run_models
from engine.llm.types import CancelFn, Message, ProgressFn, Request, Sampler
from engine.workspace.store import Workspace
from engine.workspace.variants import VARIANT_STATUSES

log = logging.getLogger(__name__)

# The run kind of answer generation; judging reads answers by it.
ANSWER_KIND = "answer"

DEFAULT_STATUSES = ("gold",)
# Base models continue a plain transcript with invented turns; stop there.
DEFAULT_SAMPLER = Sampler(temperature=0.0, max_tokens=384, stop=("\nUser:", "\nAssistant:"))


@dataclass(frozen=True)
class AnswerTemplate:
    dialect: str
    text: str  # comments stripped; contains $question
    sha256: str  # of the file as written
    source: str

    def fill(self, question: str) -> str:
        return Template(self.text).substitute(question=question)


def answer_template(dialect: str, prompt_dir: str | Path | None = None) -> AnswerTemplate:
    """The workspace's own file if present, else the bundled one, else the standard one."""
    name = f"answer_{dialect}.txt"
    if prompt_dir is not None:
        own = Path(prompt_dir) / name
        if os.path.lexists(own):  # a FIFO or a link loop there is refused, not skipped
            return _read_template(dialect, own, read_user_text(own, ANSWER_PROMPT))
    bundled: Traversable = files("resources") / "prompts" / name
    if not bundled.is_file():
        log.warning(
            N_("no answer prompt for dialect %r; using the standard-Bengali prompt"), dialect
        )
        bundled = files("resources") / "prompts" / "answer_standard.txt"
    return _read_template(dialect, bundled, bundled.read_text(encoding="utf-8"))


def check_prompt_dir(prompt_dir: str | Path) -> Path:
    """``prompt_dir`` if it is a folder holding at least one answer_<dialect>.txt file."""
    folder = Path(prompt_dir)
    if not folder.is_dir():
        raise UserError(
            f"{folder}: not a folder (answer prompts are answer_<dialect>.txt files in one)"
        )
    if not any(folder.glob("answer_*.txt")):
        raise UserError(f"{folder}: holds no answer_<dialect>.txt file")
    return folder


def _read_template(dialect: str, path, raw: str) -> AnswerTemplate:
    text = "\n".join(line for line in raw.splitlines() if not line.lstrip().startswith("#"))
    text = text.strip()
    try:
        Template(text).substitute(question="x")
    except (KeyError, ValueError) as exc:
        raise UserError(f"{path}: answer prompt may use only $question ({exc})") from None
    if "$question" not in text:
        raise UserError(f"{path}: answer prompt must contain $question")
    return AnswerTemplate(dialect, text, hashlib.sha256(raw.encode("utf-8")).hexdigest(), str(path))


def answer_templates(ws: Workspace, prompt_dir=None) -> dict[str, AnswerTemplate]:
    if prompt_dir is not None:
        check_prompt_dir(prompt_dir)
    return {code: answer_template(code, prompt_dir) for code in sorted(ws.dialect_codes())}


def generation_card(
    templates: dict[str, AnswerTemplate], sampler: Sampler, schedule: dict | None = None
) -> dict:
    card = {"schedule": schedule} if schedule else {}
    return card | {
        "task": "answer",
        "templates": {
            c: {"sha256": t.sha256, "source": Path(t.source).name} for c, t in templates.items()
        },
        "sampler": sampler.as_dict(),
        "chat": "user message",
    }


def select_variants(
    ws: Workspace, *, statuses=DEFAULT_STATUSES, dialects=None, question_set: str | None = None
) -> list[dict]:
    """Dialect variants with a wanted status, plus the standard variant of each of their
    questions (the reference every dialect answer is judged against)."""
    bad = set(statuses) - set(VARIANT_STATUSES)
    if bad:
        raise UserError(f"unknown variant status {sorted(bad)}; use {list(VARIANT_STATUSES)}")
    where = [f"v.status IN ({','.join('?' * len(statuses))})", "v.dialect != 'standard'"]
    params: list = list(statuses)
    if dialects:
        unknown = set(dialects) - ws.dialect_codes()
        if unknown:
            raise UserError(f"unknown dialect {sorted(unknown)}")
        where.append(f"v.dialect IN ({','.join('?' * len(dialects))})")
        params += list(dialects)
    if question_set:
        if ws.scalar("SELECT id FROM question_sets WHERE name = ?", (question_set,)) is None:
            known = [r["name"] for r in ws.query("SELECT name FROM question_sets ORDER BY name")]
            raise UserError(
                "no question set {name!r} (known: {known})".format(
                    name=question_set, known=", ".join(known) or "none"
                )
            )
        where.append("q.set_id = (SELECT id FROM question_sets WHERE name = ?)")
        params.append(question_set)
    return ws.query(
        f"""
        WITH chosen AS (
            SELECT v.id FROM variants v JOIN questions q ON q.id = v.question_id
            WHERE {" AND ".join(where)})
        SELECT v.id, v.question_id, v.dialect, v.text, v.status FROM variants v
        WHERE v.id IN (SELECT id FROM chosen)
           OR (v.dialect = 'standard' AND v.question_id IN (
                SELECT question_id FROM variants WHERE id IN (SELECT id FROM chosen)))
        ORDER BY v.question_id, v.dialect != 'standard', v.dialect, v.script""",
        tuple(params),
    )


def first_questions(variants: list[dict], limit: int | None) -> list[dict]:
    """The variants of the first ``limit`` questions (all of them when ``limit`` is None):
    a small first run to try the settings on."""
    if not limit:
        return variants
    kept: set[int] = set()
    for v in variants:
        if len(kept) == limit:
            break
        kept.add(v["question_id"])
    return [v for v in variants if v["question_id"] in kept]


def answer_requests(
    variants: list[dict], templates: dict[str, AnswerTemplate], sampler: Sampler
) -> list[Request]:
    return [
        Request(
            key=f"v{v['id']}",
            sampler=sampler,
            messages=(Message("user", templates[v["dialect"]].fill(v["text"])),),
        )
        for v in variants
    ]


def generate_answers(
    ws: Workspace,
    model_rows: list[dict],
    *,
    statuses=DEFAULT_STATUSES,
    dialects=None,
    question_set: str | None = None,
    limit: int | None = None,
    sampler: Sampler = DEFAULT_SAMPLER,
    prompt_dir=None,
    schedule: dict | None = None,
    backend_factory=None,
    batch_size: int = 8,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> list[RunSummary]:
    """Run (or resume) one answer run per model (``limit``: only the variants of the first
    questions); returns one summary per model
    (:func:`engine.llm.runs.model_runs.run_models`: a model that does not load is reported).

    ``schedule`` (local models: n_seq, n_ctx, …) goes into the run card, since batching
    changes greedy outputs. ``backend_factory(ws, run_id)`` opens a backend (default: the
    run's model with the schedule its card records); tests pass one for fault injection.
    """
    templates = answer_templates(ws, prompt_dir)  # the user's files first, before any work
    variants = select_variants(ws, statuses=statuses, dialects=dialects, question_set=question_set)
    variants = first_questions(variants, limit)
    if not variants:
        raise UserError(
            f"no variants with status {', '.join(statuses)} to answer "
            f"(mark translations gold, or pass {setting(Setting.STATUS, 'draft,reviewed,gold')})"
        )
    planned = PlannedRun(
        ANSWER_KIND,
        generation_card(templates, sampler, schedule),
        answer_requests(variants, templates, sampler),
        job_options={"variant_ids": {f"v{v['id']}": v["id"] for v in variants}},
    )
    return run_models(
        ws,
        model_rows,
        lambda model: [planned],
        backend_factory=backend_factory,
        batch_size=batch_size,
        progress=progress,
        cancelled=cancelled,
    )
