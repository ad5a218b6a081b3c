"""RAG translation of standard-Bengali questions into dialects (paper 000 §3.1).

For every question x selected dialect: retrieve exemplar pairs (engine.rag), render the
prompt template (``resources/prompts/translate_fewshot.txt`` for base models, the chat
variant for models with a chat template), run it through the execution engine's
resumable jobs, and store the cleaned first line as a *machine draft* variant with its
exemplar ids, the full retrieval explanation and the run id (whose card holds the model
hash, prompt hash, sampler and retrieval settings). Variants a person touched — any
status other than draft, or a provenance other than machine — are never overwritten.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from string import Template

from engine.errors import UserError
from engine.llm.runs.model_runs import PlannedRun, run_models
from engine.llm.runs.responses import finished_responses, link_variant
from engine.llm.types import Message, Request, Sampler
from engine.rag.explain import RetrievalExplanation
from engine.text.textnorm import normalize_text
from engine.translation.draft_checks import check_drafts
from engine.workspace.store import Workspace, utcnow
from engine.workspace.variants import add_history, upsert_machine_draft

log = logging.getLogger(__name__)

FEWSHOT_TEMPLATE = "translate_fewshot.txt"
CHAT_TEMPLATE = "translate_chat.txt"
BASE_SAMPLER = Sampler(temperature=0.0, max_tokens=96, stop=("\n",))
CHAT_SAMPLER = Sampler(temperature=0.0, max_tokens=160)
STANDARD_LABEL = "প্রমিত"


@dataclass(frozen=True)
class PromptTemplate:
    name: str
    text: str  # comments removed

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    @classmethod
    def load(cls, name: str) -> PromptTemplate:
        raw = (files("resources") / "prompts" / name).read_text(encoding="utf-8")
        lines = [ln for ln in raw.splitlines() if not (ln.startswith("# ") or ln == "#")]
        return cls(name, "\n".join(lines).strip("\n") + "\n")


def template_for(model_row: dict) -> PromptTemplate:
    return PromptTemplate.load(
        CHAT_TEMPLATE if model_row.get("has_chat_template") else FEWSHOT_TEMPLATE
    )


def sampler_for(model_row: dict) -> Sampler:
    return CHAT_SAMPLER if model_row.get("has_chat_template") else BASE_SAMPLER


def format_examples(explanation: RetrievalExplanation, dialect_bn: str) -> str:
    blocks = [
        f"{STANDARD_LABEL}: {normalize_text(e.standard_text)}\n"
        f"{dialect_bn}: {normalize_text(e.dialect_text)}\n"
        for e in explanation.exemplars
    ]
    return "\n".join(blocks)


def build_request(
    key: str,
    source: str,
    explanation: RetrievalExplanation,
    dialect: dict,
    template: PromptTemplate,
    sampler: Sampler,
) -> Request:
    """One translation request. Dataset text is substituted as values, never parsed."""
    values = {
        "dialect_en": dialect["name_en"],
        "dialect_bn": dialect["name_bn"],
        "examples": format_examples(explanation, dialect["name_bn"]),
        "source": normalize_text(source),
    }
    if "### system" not in template.text:
        text = Template(template.text).safe_substitute(values)
        return Request(key=key, prompt=text.rstrip("\n"), sampler=sampler)
    # split the template before substituting, so dataset text cannot open a new message
    system, _, user = template.text.partition("### system")[2].partition("### user")
    return Request(
        key=key,
        sampler=sampler,
        messages=(
            Message("system", Template(system).safe_substitute(values).strip()),
            Message("user", Template(user).safe_substitute(values).strip()),
        ),
    )


_QUOTES = "\"'“”‘’«»`"


def clean_completion(raw: str | None, labels: Sequence[str] = ()) -> str:
    """The first non-empty line, without a leading label ("চাটগাঁইয়া: …") or quotes."""
    if not raw:
        return ""
    line = next((ln for ln in raw.splitlines() if ln.strip()), "")
    line = line.strip()
    for label in (*labels, STANDARD_LABEL, "Translation", "অনুবাদ"):
        if label and line.casefold().startswith(label.casefold()):
            rest = line[len(label) :].lstrip()
            if rest[:1] in (":", "："):
                line = rest[1:]
                break
    return normalize_text(line.strip().strip(_QUOTES).strip())


def run_card(template: PromptTemplate, sampler: Sampler, retriever, task: str) -> dict:
    m = retriever.index.manifest
    return {
        "task": task,
        "prompt_template": template.name,
        "prompt_sha256": template.sha256,
        "sampler": sampler.as_dict(),
        "retrieval": retriever.cfg.as_dict(),
        "index": {
            "encoder_id": m["encoder_id"],
            "corpus_hash": m["corpus_hash"],
            "splits": m["splits"],
            "tokenizer": m["tokenizer"],
        },
    }


@dataclass
class TranslationSummary:
    run_id: int | None
    items: int
    protected: int  # human-touched variants left alone
    generated: int
    cached: int
    errors: int
    written: int  # variants created or updated
    empty: int  # completions with nothing usable after cleaning
    cancelled: bool
    failed: int = 0  # items still without a finished response (errors or never reached)
    load_error: str | None = None  # the model did not load (engine.llm.runs.model_runs)
    last_error: str | None = None  # why the last failed item failed
    without_pairs: list[str] = field(default_factory=list)  # dialects with no corpus pairs
    checked: int = 0  # drafts given the dialect check (engine.translation.draft_checks)
    flagged: int = 0  # of those, flagged: copies or likely another dialect

    @property
    def complete(self) -> bool:
        return self.failed == 0 and not self.cancelled

    def as_dict(self) -> dict:
        return {**self.__dict__, "complete": self.complete}


NO_PAIRS_NOTE = (
    "no {dialect} pairs in the corpus: the exemplars are other dialects' and the draft may "
    "be little more than the standard question"
)


def dialects_without_pairs(ws: Workspace, dialects: Sequence[str]) -> list[str]:
    """The dialects that have no sentence pairs: retrieval falls back to other dialects'
    exemplars, so their drafts are marked and the user is warned before a run starts."""
    have = {r["dialect"] for r in ws.query("SELECT DISTINCT dialect FROM sentence_pairs")}
    return [d for d in dialects if d not in have]


def translation_items(
    ws: Workspace, question_set: str, dialects: Sequence[str], limit: int | None = None
) -> tuple[list[tuple[dict, str]], int]:
    """The (question, dialect) items a translation would draft, and how many it keeps
    because a person touched them (reviewed, gold, edited): what the step would write is
    known, and said, before anything loads. ``limit`` counts the first questions, passing
    over those whose every chosen dialect came rendered with the imported file (a sample or a
    corpus with references: they would write nothing). Questions this study drafted count
    even once reviewed, so a run again with the same limit takes the same questions and
    resumes instead of drafting new ones."""
    set_id = ws.scalar("SELECT id FROM question_sets WHERE name = ?", (question_set,))
    if set_id is None:
        raise UserError(f"no question set named {question_set!r}")
    names = ws.dialect_names()
    unknown = [d for d in dialects if d not in names or d == "standard"]
    if unknown:
        raise UserError(f"unknown dialect(s): {', '.join(unknown)}")
    questions = ws.query("SELECT id, text FROM questions WHERE set_id = ? ORDER BY id", (set_id,))
    protected = {
        (r["question_id"], r["dialect"]): r["provenance"]
        for r in ws.query(
            "SELECT v.question_id, v.dialect, v.provenance FROM variants v "
            "JOIN questions q ON q.id = v.question_id "
            "WHERE q.set_id = ? AND v.script = 'bengali' "
            "AND NOT (v.provenance = 'machine' AND v.status = 'draft')",
            (set_id,),
        )
    }
    items: list[tuple[dict, str]] = []
    kept = taken = 0
    for q in questions:
        if limit and taken == limit:
            break
        keys = [(q["id"], d) for d in dialects]
        todo = [(q, d) for (_id, d) in keys if (_id, d) not in protected]
        kept += len(dialects) - len(todo)
        imported = not todo and all(protected[k] == "source" for k in keys)
        taken += not imported
        items += todo
    return items, kept


def translate_questions(
    ws: Workspace,
    retriever,
    *,
    question_set: str,
    dialects: Sequence[str],
    model_row: dict,
    backend=None,
    limit: int | None = None,
    batch_size: int = 16,
    progress: Callable[[int, int, str], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> TranslationSummary:
    """Machine drafts of every question × dialect no person has touched, by ``model_row``
    (or ``backend``, closed afterwards). A model that does not load leaves no run and is
    named in ``load_error``."""
    names = ws.dialect_names()
    items, protected = translation_items(ws, question_set, dialects, limit)
    without = dialects_without_pairs(ws, dialects)
    for dialect in without:
        log.warning("translate: %s", NO_PAIRS_NOTE.format(dialect=dialect))
    if not items:
        return TranslationSummary(None, 0, protected, 0, 0, 0, 0, 0, False, without_pairs=without)
    template, sampler = template_for(model_row), sampler_for(model_row)
    explanations = retriever.retrieve_many(
        [(q["text"], d, "") for q, d in items], cancelled=cancelled
    )
    requests, by_key = [], {}
    for (q, d), ex in zip(items, explanations):
        key = f"q{q['id']}:{d}"
        requests.append(build_request(key, q["text"], ex, names[d], template, sampler))
        by_key[key] = (q, d, ex)
    planned = PlannedRun("translate", run_card(template, sampler, retriever, "translate"), requests)
    jobs = run_models(
        ws,
        [model_row],
        lambda model: [planned],
        backend_factory=None if backend is None else lambda w, run_id: backend,
        batch_size=batch_size,
        progress=progress,
        cancelled=cancelled,
    )
    if not jobs:  # cancelled before it began
        return TranslationSummary(
            None, len(items), protected, 0, 0, 0, 0, 0, True, len(items), without_pairs=without
        )
    (job,) = jobs
    run_id = job["run_id"]
    written, empty = _store_variants(ws, run_id, by_key, names, set(without)) if run_id else (0, 0)
    checks = check_drafts(ws, cancelled=cancelled)  # the dialect check of the new drafts
    return TranslationSummary(
        run_id,
        len(items),
        protected,
        job["done_now"] - job["cached"],
        job["cached"],
        job["errors"],
        written,
        empty,
        job["cancelled"],
        failed=job["items"] - job["done_before"] - job["done_now"],
        load_error=job.get("load_error"),
        last_error=job.get("last_error"),
        without_pairs=without,
        checked=checks["checked"],
        flagged=checks["flagged"],
    )


def _store_variants(
    ws: Workspace, run_id: int, by_key: dict, names: dict, without_pairs: set[str]
) -> tuple[int, int]:
    """Turn the run's finished responses into machine drafts (idempotent). A draft of a
    dialect without corpus pairs says so in its retrieval record (``no_dialect_pairs`` and
    ``warning``) and in its history comment."""
    responses = finished_responses(ws, run_id)
    written = empty = 0
    now = utcnow()
    with ws.transaction() as conn:
        for key, (q, dialect, ex) in by_key.items():
            resp = responses.get(key)
            if resp is None:
                continue
            text = clean_completion(
                resp["text"], (names[dialect]["name_bn"], names[dialect]["name_en"])
            )
            if not text:
                empty += 1
                continue
            old = conn.execute(
                "SELECT id, text, status, provenance, run_id FROM variants WHERE "
                "question_id = ? AND dialect = ? AND script = 'bengali'",
                (q["id"], dialect),
            ).fetchone()
            if old and (old[3] != "machine" or old[2] != "draft"):
                continue  # a person touched it after this job started
            if old and old[1] == text and old[4] == run_id:
                continue
            retrieval, comment = ex.to_json(), f"response {resp['id']}"
            if dialect in without_pairs:
                note = NO_PAIRS_NOTE.format(dialect=dialect)
                retrieval = json.dumps(
                    {**json.loads(retrieval), "no_dialect_pairs": True, "warning": note},
                    ensure_ascii=False,
                )
                comment += f"; {note}"
            vid = upsert_machine_draft(
                conn,
                question_id=q["id"],
                dialect=dialect,
                text=text,
                exemplar_ids=json.dumps(ex.pair_ids),
                retrieval=retrieval,
                run_id=run_id,
                now=now,
            )
            link_variant(ws, resp["id"], vid)
            add_history(
                conn,
                vid,
                at=now,
                actor=f"run:{run_id}",
                action="machine-translate",
                old_text=old[1] if old else None,
                new_text=text,
                old_status=old[2] if old else None,
                new_status="draft",
                comment=comment,
            )
            written += 1
    return written, empty
