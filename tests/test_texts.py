"""Text that stays true (docs/design.md, "House style"): what docs, comments and strings say
about the code must keep matching the code after a module moves.

- Every ``python -m X``, every dotted ``engine.``/``widgets.``/``app.`` path and every
  ``engine/….py``-style file path in the docs, comments, docstrings and product strings names a
  module or file that exists.
- Comments and docstrings in ``engine/``, ``widgets/`` and ``app/`` carry no measured timings
  (they belong in bench output and the README's tables, and rot as the code changes), and
  no comment or docstring there or in ``tests/``, ``scripts/`` and ``packaging/`` names an
  issue number (it says nothing to a reader without the tracker). A setting such as "a
  100 ms timer" is not a measurement: the pattern catches approximate durations, ranges,
  comparisons, what something took or cost, and durations said to be measured.
- A module of ``engine/``, ``widgets/`` or ``app/`` over 500 lines says at its top why it stays
  whole, in a comment line starting ``# Stays whole:``.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "widgets", "app")
PYTHON_DIRS = (*PACKAGES, "tests", "scripts", "bench", "packaging")
# product code, whose every string may reach a user or a reader; tests plant made-up paths
STRING_DIRS = (*PACKAGES, "scripts", "bench", "packaging")

MODULE_PATH = re.compile(r"(?<![\w./-])((?:engine|widgets|app)(?:\.[A-Za-z_]\w*)+)")
RUN_MODULE = re.compile(r"python -m ([\w.]+)")
FILE_PATH = re.compile(
    r"(?<![\w./-])((?:engine|widgets|app|tests|scripts|bench|packaging|docs|resources)"
    r"/[\w/.-]*\.(?:py|md|toml|txt))"
)

DURATION = r"\d+(?:[.,]\d+)?\s?(?:ms|µs|s|sec|seconds|min|minutes)\b"
ISSUE_NUMBER = re.compile(r"\bissues? #?\d+", re.IGNORECASE)
MEASURED_TIMING = re.compile(
    "|".join(
        (
            rf"(?:~|\babout |\baround ){DURATION}",  # an approximate duration: ~60 ms
            rf"\d+(?:\.\d+)?\s?[-–]\s?{DURATION}",  # a range: 40-50 ms
            rf"{DURATION}\s+(?:against|vs\.?|->|→)\s",  # a comparison: 2.75 s against 2.90 s
            rf"\b(?:takes?|took|costs?|spent)\b[^.;]{{0,40}}?\b{DURATION}",  # took 3.2 s
            rf"\({DURATION}\)",  # a bare duration in parentheses: (40 ms)
            rf"\bmeasured\b.*\b{DURATION}|\b{DURATION}.*\bmeasured\b",  # a duration said measured
        )
    ),
    re.IGNORECASE,
)


def python_files(*dirs: str) -> list[Path]:
    return sorted(path for top in dirs for path in (ROOT / top).rglob("*.py"))


def doc_files() -> list[Path]:
    """Every Markdown file of the repository, outside hidden folders (.git, .venv, caches)
    and the installer's build outputs (build/, dist/: third-party files)."""
    return sorted(
        path
        for path in ROOT.rglob("*.md")
        if not any(part.startswith(".") for part in path.relative_to(ROOT).parts)
        and path.relative_to(ROOT).parts[0] not in ("build", "dist")
    )


def comments(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every ``#`` comment."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string


def docstrings(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """(first line, text) of the module's, every class's and every function's docstring."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                if isinstance(body[0].value.value, str):
                    yield body[0].lineno, body[0].value.value


def strings(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """(line, text) of every string constant, f-strings' literal parts included."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def prose(path: Path, *, all_strings: bool) -> Iterator[tuple[int, str]]:
    """The text of ``path`` written for a reader: a document whole, or a module's comments and
    docstrings (and all its strings when ``all_strings``)."""
    source = path.read_text(encoding="utf-8")
    if path.suffix == ".md":
        yield from enumerate(source.splitlines(), 1)
        return
    tree = ast.parse(source)
    yield from comments(source)
    yield from (strings(tree) if all_strings else docstrings(tree))


def defines(module: Path, name: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", module.read_text(encoding="utf-8")) is not None


def module_file(parts: list[str]) -> Path | None:
    path = ROOT.joinpath(*parts)
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def resolves(dotted: str) -> bool:
    """Whether ``dotted`` is a module, or a name that a module of at least two parts defines
    (``engine.llm.api.log_llama_backend``)."""
    parts = dotted.split(".")
    for length in range(len(parts), 1, -1):
        found = module_file(parts[:length])
        if found is not None:
            rest = parts[length:]
            return not rest or defines(found, rest[0])
    return False


def stale_paths(path: Path, first_line: int, text: str) -> Iterator[str]:
    for line, text_line in enumerate(text.splitlines(), first_line):
        yield from stale_paths_in_line(f"{path.relative_to(ROOT)}:{line}", text_line)


def stale_paths_in_line(where: str, text: str) -> Iterator[str]:
    for name in RUN_MODULE.findall(text):
        if name.split(".")[0] in PYTHON_DIRS and module_file(name.split(".")) is None:
            yield f"{where}: python -m {name}"
    for name in MODULE_PATH.findall(text):
        if not resolves(name.rstrip(".")):
            yield f"{where}: {name}"
    for name in FILE_PATH.findall(text):
        if not (ROOT / name).exists():
            yield f"{where}: {name}"


def test_paths_in_docs_comments_and_strings_exist():
    stale = []
    for path in doc_files():
        for line, text in prose(path, all_strings=False):
            stale.extend(stale_paths(path, line, text))
    for path in python_files(*PYTHON_DIRS):
        all_strings = path.relative_to(ROOT).parts[0] in STRING_DIRS
        for line, text in prose(path, all_strings=all_strings):
            stale.extend(stale_paths(path, line, text))
    assert not stale, "paths that name no module or file:\n" + "\n".join(stale)


def test_comments_carry_no_issue_numbers():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text.strip()}"
        for path in python_files(*PACKAGES, "tests", "scripts", "packaging")
        for first, prose_text in prose(path, all_strings=False)
        for line, text in enumerate(prose_text.splitlines(), first)
        if ISSUE_NUMBER.search(text)
    ]
    assert not found, "issue numbers in comments or docstrings:\n" + "\n".join(found)


def test_comments_carry_no_measured_timings():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text.strip()}"
        for path in python_files(*PACKAGES)
        for first, prose_text in prose(path, all_strings=False)
        for line, text in enumerate(prose_text.splitlines(), first)
        if MEASURED_TIMING.search(text)
    ]
    assert not found, "measured timings in comments or docstrings:\n" + "\n".join(found)


def test_the_timing_pattern_tells_measurements_from_settings():
    for measured in (
        "(40 ms)",
        "took 3.2 s",
        "~60 ms",
        "40-50 ms each",
        "2.75 s against 2.90 s",
        "costs 0.17 s",
        "measured at 1.8 s",
    ):
        assert MEASURED_TIMING.search(measured), measured
    for setting in (
        "INTERVAL_MS = 1000",
        "a 100 ms timer",
        "polling every 50 ms",
        "at most every 10 s",
        "About 2 h 10 min",
        "recall@1/@5 is measured",
    ):
        assert not MEASURED_TIMING.search(setting), setting


STAYS_WHOLE = "# Stays whole:"
LONGEST = 500


def top_comments(source: str) -> list[str]:
    """The comment lines before the module's first import or definition."""
    tree = ast.parse(source)
    first = next(
        (n.lineno for n in tree.body if not isinstance(n, ast.Expr)), len(source.splitlines())
    )
    return [text for line, text in comments(source) if line < first]


def test_long_modules_say_why_they_stay_whole():
    """A module over 500 lines in engine/, widgets/ or app/ is split where a seam exists, or
    says at its top, in a comment line starting "# Stays whole:", why it does not split."""
    unexplained = {}
    for path in python_files(*PACKAGES):
        source = path.read_text(encoding="utf-8")
        if len(source.splitlines()) <= LONGEST:
            continue
        if not any(text.startswith(STAYS_WHOLE) for text in top_comments(source)):
            unexplained[path.relative_to(ROOT).as_posix()] = len(source.splitlines())
    assert not unexplained, "long modules without a '# Stays whole:' reason:\n" + "\n".join(
        f"{name}: {n} lines" for name, n in unexplained.items()
    )
