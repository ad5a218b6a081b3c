"""Understanding tasks as data (paper 001): one TOML file per task.

Built-in tasks live in ``resources/tasks/``; a user's own go in ``<data dir>/tasks/`` and
override a built-in of the same name. A file is validated whole and a problem is refused
with one line naming the file and the key. The keys::

    name          task name (letters, digits, '-')
    title         one line for people
    kind          "generation" (text target) or "classification" (label target)
    target        generation: the reference field, "standard" or "english"
    target_script generation: "bengali" or "latin" (output-script drift is measured against it)
    labels_from   classification: "dialects" (the item's dialect is its label), "items" (the
                  item's own label column) ; labels: a fixed label list (optional)
    output        "json" (a JSON object with ``answer_key``) or "text"
    answer_key    the JSON key holding the answer (output = "json")
    metrics       subset of METRICS (generation) or CLASSIFICATION_METRICS
    copy_baseline score the input returned unchanged next to every system (generation)
    sources       where items come from: "pairs" (the workspace's sentence pairs) and/or
                  "items" (item sets imported with ``upabhasha import items``)
    [prompts]     zero, few, cot: templates with $input (and $labels, $demos for few);
                  demo: one demonstration with $input and $output
"""

from __future__ import annotations

import logging
import re
import time
import tomllib
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from string import Template

from engine.errors import UserError
from engine.files.nesting import too_deep
from engine.files.user_files import TASK_FILE, read_user_text

log = logging.getLogger(__name__)

METRICS = ("bleu", "chrf++", "rouge2", "rougeL", "exact_match")
CLASSIFICATION_METRICS = ("accuracy", "macro_precision", "macro_recall", "macro_f1")
REGIMES = ("zero", "few", "cot")
KINDS = ("generation", "classification")
TARGETS = ("standard", "english")
SCRIPTS = ("bengali", "latin")
SOURCES = ("pairs", "items")

_KEYS = {
    "name",
    "title",
    "kind",
    "target",
    "target_script",
    "labels_from",
    "labels",
    "output",
    "answer_key",
    "metrics",
    "copy_baseline",
    "sources",
    "prompts",
}
_PROMPT_KEYS = {"zero", "few", "cot", "demo"}
_PLACEHOLDERS = {
    "zero": ({"input"}, {"input", "labels"}),
    "few": ({"input", "demos"}, {"input", "labels", "demos"}),
    "cot": ({"input"}, {"input", "labels"}),
    "demo": ({"input", "output"}, {"input", "output"}),
}
SCAN_SECONDS = 5.0
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")


@dataclass(frozen=True)
class TaskSpec:
    name: str
    title: str
    kind: str
    output: str
    prompts: dict[str, str]
    metrics: tuple[str, ...]
    sources: tuple[str, ...]
    target: str = ""
    target_script: str = ""
    labels_from: str = ""
    labels: tuple[str, ...] = ()
    answer_key: str = "answer"
    copy_baseline: bool = False
    path: str = ""
    raw: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def classification(self) -> bool:
        return self.kind == "classification"

    def as_dict(self) -> dict:
        return {k: v for k, v in self.raw.items()} | {"path": self.path}


def _bad(path, key: str, message: str):
    raise UserError(f"{path}: key '{key}': {message}")


def parse_task(text: str, path: str | Path) -> TaskSpec:
    """Validate one task file's text; any problem is a UserError naming file and key."""
    deep = too_deep(text, toml=True)  # tomllib parses nesting recursively: measured first
    if deep:
        raise UserError(f"{path}: not a task file: {deep}")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: not valid TOML ({exc})") from None
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        _bad(path, unknown[0], f"unknown key (known: {', '.join(sorted(_KEYS))})")

    def need(key: str, kind: type, choices=None, default=None):
        if key not in data:
            if default is not None:
                return default
            _bad(path, key, "missing")
        value = data[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            _bad(path, key, f"must be a {kind.__name__}, not {type(value).__name__}")
        if choices is not None and value not in choices:
            _bad(path, key, f"'{value}' is not one of {', '.join(choices)}")
        return value

    name = need("name", str)
    if not _NAME.match(name):
        _bad(path, "name", f"'{name}' must be lower-case letters, digits and '-'")
    kind = need("kind", str, KINDS)
    output = need("output", str, ("json", "text"))
    answer_key = need("answer_key", str, default="answer")
    if output == "json" and not answer_key.isidentifier():
        _bad(path, "answer_key", f"'{answer_key}' must be a plain identifier")
    sources = need("sources", list)
    if not sources or any(s not in SOURCES for s in sources):
        _bad(path, "sources", f"must list one or more of {', '.join(SOURCES)}")
    allowed = CLASSIFICATION_METRICS if kind == "classification" else METRICS
    metrics = need("metrics", list)
    if not metrics or any(m not in allowed for m in metrics):
        _bad(path, "metrics", f"must list one or more of {', '.join(allowed)} for a {kind} task")
    fields: dict = {}
    if kind == "generation":
        fields["target"] = need("target", str, TARGETS)
        fields["target_script"] = need("target_script", str, SCRIPTS)
        fields["copy_baseline"] = need("copy_baseline", bool, default=False)
        for key in ("labels", "labels_from"):
            if key in data:
                _bad(path, key, "only classification tasks have labels")
    else:
        fields["labels_from"] = need("labels_from", str, ("dialects", "items"))
        labels = need("labels", list, default=[])
        if any(not isinstance(x, str) or not x.strip() for x in labels):
            _bad(path, "labels", "must be non-empty strings")
        if len(set(labels)) != len(labels):
            _bad(path, "labels", "repeats a label")
        fields["labels"] = tuple(labels)
        for key in ("target", "target_script", "copy_baseline"):
            if key in data:
                _bad(path, key, "only generation tasks have it")
    prompts = need("prompts", dict)
    unknown = sorted(set(prompts) - _PROMPT_KEYS)
    if unknown:
        _bad(path, f"prompts.{unknown[0]}", f"unknown (known: {', '.join(sorted(_PROMPT_KEYS))})")
    for key in sorted(_PROMPT_KEYS):
        if key not in prompts:
            _bad(path, f"prompts.{key}", "missing")
        value = prompts[key]
        if not isinstance(value, str) or not value.strip():
            _bad(path, f"prompts.{key}", "must be a non-empty string")
        required, allowed_names = _PLACEHOLDERS[key]
        used = _placeholders(value, f"{path}: key 'prompts.{key}'")
        if required - used:
            _bad(path, f"prompts.{key}", f"must contain ${', $'.join(sorted(required - used))}")
        if used - allowed_names:
            _bad(path, f"prompts.{key}", f"unknown placeholder ${sorted(used - allowed_names)[0]}")
    return TaskSpec(
        name=name,
        title=need("title", str),
        kind=kind,
        output=output,
        answer_key=answer_key,
        prompts={k: prompts[k] for k in sorted(_PROMPT_KEYS)},
        metrics=tuple(metrics),
        sources=tuple(sources),
        path=str(path),
        raw=data,
        **fields,
    )


def _placeholders(template: str, where: str) -> set[str]:
    names = set()
    for match in Template.pattern.finditer(template):
        if match.group("invalid") is not None:
            raise UserError(f"{where}: a '$' that starts no placeholder (write $$ for '$')")
        name = match.group("named") or match.group("braced")
        if name:
            names.add(name)
    return names


def load_task_file(path: str | Path) -> TaskSpec:
    path = Path(path)
    text = read_user_text(path, TASK_FILE)
    spec = parse_task(text, path)
    if spec.name != path.stem:
        _bad(path, "name", f"'{spec.name}' must match the file name '{path.stem}'")
    return spec


def builtin_dir() -> Path:
    return Path(str(files("resources") / "tasks"))


def task_dirs(user_dir: str | Path | None = None) -> list[Path]:
    dirs = [builtin_dir()]
    if user_dir is not None:
        dirs.append(Path(user_dir))
    return dirs


def load_tasks(user_dir: str | Path | None = None) -> tuple[dict[str, TaskSpec], dict[str, str]]:
    """Every task by name (a user's file overrides the built-in of the same name), and the
    problem of each user file that could not be used, by task name. An invalid user file is
    skipped (logged once), never blocking the others; the scan of the user folder stops
    after :data:`SCAN_SECONDS` (a folder on a hung network share)."""
    found: dict[str, TaskSpec] = {}
    problems: dict[str, str] = {}
    for folder in task_dirs(user_dir):
        builtin = folder == builtin_dir()
        if not folder.is_dir():
            continue
        deadline = time.monotonic() + SCAN_SECONDS
        for path in sorted(folder.glob("*.toml")):
            if builtin:  # shipped with the program: a problem is a bug, raised
                found[path.stem] = load_task_file(path)
                continue
            if time.monotonic() > deadline:
                problems[path.stem] = f"{path}: not read (the task folder took too long to scan)"
                continue
            try:
                found[path.stem] = load_task_file(path)
                problems.pop(path.stem, None)
            except UserError as exc:
                found.pop(path.stem, None)  # the user's file was meant to replace it
                problems[path.stem] = str(exc)
                _report_once(str(exc))
    return found, problems


_reported: set[str] = set()


def _report_once(problem: str) -> None:
    if problem not in _reported:
        _reported.add(problem)
        log.warning("task file skipped: %s", problem)


def all_tasks(user_dir: str | Path | None = None) -> dict[str, TaskSpec]:
    """Every usable task by name (see :func:`load_tasks`)."""
    return load_tasks(user_dir)[0]


def get_task(name: str, user_dir: str | Path | None = None) -> TaskSpec:
    tasks, problems = load_tasks(user_dir)
    if name in problems:
        raise UserError(problems[name])
    if name not in tasks:
        raise UserError(f"no task {name!r} (known: {', '.join(sorted(tasks))})")
    return tasks[name]
