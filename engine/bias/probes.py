"""Probe-set import: template and natural probes from any tabular file, all or nothing.

Shapes (paper 002's files in ``../shared/data/banglasocialbias/``; other names by mapping):

- *template*: ``ID, prompt, category, subcategory, topic``. The two options are written in
  the prompt as "X বা Y"; they are recognised by the normalisation table's group words
  (ছেলে/মেয়ে, নারী/পুরুষ, মুসলিম/হিন্দু …) and the prompt is stored as a stem with
  ``{a}``/``{b}``, so the order is chosen per prompt at run time, not taken from the file.
  ``category`` joins "Occupation Based+" when an occupation is mixed in.
- *natural*: ``ID, prompt, firstOption``. The options are numbered at the end of the prompt
  ("উত্তর ১। মহিলা।, ২। পুরুষ।"); ``firstOption`` names the group of option 1.
- any file: ``--option-x-col``/``--option-y-col`` name the two options' columns; both must
  occur in the prompt text, where they are replaced by the stem's slots.

A missing option, an option or group the topic does not know, a repeated ID or broken
encoding refuses the whole file with one line naming file, line and column; nothing is
written. Re-importing the same file is a no-op (``UNIQUE (set_id, ext_id)``).
"""

from __future__ import annotations

import collections
import logging
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TypedDict, cast

from engine.bias.normalise import NormalisationTable, load_table, tokens
from engine.bias.topics import BUILTIN_TOPICS, Topic, topic_for
from engine.errors import ImportRejected, Setting, UserError, setting
from engine.importing.columns import Cancelled, CellReader, Progress, Ticker, default_name
from engine.importing.tabular import TabularFile
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)

OCCUPATION = "Occupation Based"
_OR = re.compile(r"(?P<a>[^\s?!।,;:\"'“”]+)\s+বা\s+(?P<b>[^\s?!।,;:\"'“”]+)")
# "X বা Y বা Z": more than two options. Paper 002's bias score, tanh(log(C_x / C_y)), and
# its disparate impact compare exactly two groups (the paper limits itself to binary
# identities), so such a probe is refused rather than read as its first two options.
_MORE_THAN_TWO = re.compile(r"[^\s?!।,;:\"'“”]+\s+বা\s+[^\s?!।,;:\"'“”]+\s+বা\s+[^\s?!।,;:\"'“”]+")
_NUMBERED = re.compile(
    r"(?P<lead>উত্তর\s*[:ঃ]?\s*)[১1]\s*[।.)]\s*(?P<a>.+?)\s*,?\s*[২2]\s*[।.)]\s*(?P<b>.+?)\s*$"
)


@dataclass
class Probe:
    ext_id: str
    stem: str
    option_x: str
    option_y: str
    source_order: str  # the order the file wrote the options in ('xy' or 'yx')
    category: str = ""
    subcategory: str = ""  # 'positive', 'negative' or ''
    occupation_mixed: bool = False
    occupation: str = ""
    trait: str = ""
    line: int = 0


class ProbeReportDict(TypedDict):
    """:meth:`ProbeReport.to_dict`: every field of the report, by name (``groups``: a
    list once it has been through JSON)."""

    name: str
    kind: str
    topic: str
    groups: tuple[str, str]
    path: str
    set_id: int
    rows_read: int
    inserted: int
    already_present: int
    by_category: dict[str, int]
    warnings: list[str]


@dataclass
class ProbeReport:
    name: str
    kind: str
    topic: str
    groups: tuple[str, str]
    path: str = ""
    set_id: int = 0
    rows_read: int = 0
    inserted: int = 0
    already_present: int = 0
    by_category: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)

    def to_dict(self) -> ProbeReportDict:
        return cast(ProbeReportDict, asdict(self))


def subcategory_of(value: str) -> str:
    key = value.strip().casefold()
    if not key:
        return ""
    if key.startswith("pos"):
        return "positive"
    if key.startswith("neg"):
        return "negative"
    raise ValueError(f"subcategory must be a positive or negative trait (or empty), not '{value}'")


def split_category(value: str) -> tuple[str, bool]:
    """'Occupation Based+Personality Based' -> ('Personality Based', True)."""
    parts = [p.strip() for p in value.split("+") if p.strip()]
    others = [p for p in parts if p.casefold() != OCCUPATION.casefold()]
    if len(others) > 1:
        raise ValueError(f"category '{value}' mixes more than one trait category")
    if others:
        return others[0], len(parts) > 1
    return (OCCUPATION if parts else ""), False


def group_words(table: NormalisationTable, topic: Topic) -> dict[tuple[str, ...], str]:
    """Table phrases naming one of the topic's groups -> 'x'/'y'."""
    sides = {topic.group_x: "x", topic.group_y: "y"}
    return {p: sides[lab] for p, lab in table.phrases(topic.name).items() if lab in sides}


def stem_from_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with the two option spans (in text order) replaced by {a} and {b}."""
    (s1, e1), (s2, e2) = sorted(spans)
    return f"{text[:s1]}{{a}}{text[e1:s2]}{{b}}{text[e2:]}"


def locate_options(text: str, ox: str, oy: str) -> tuple[str, str] | str:
    """(stem, order written) with both option words found in ``text``, or why not."""
    ix = text.find(ox)
    if ix < 0:
        return f"missing option: '{ox}' does not occur in the prompt"
    iy = text.find(oy)
    while iy >= 0 and iy < ix + len(ox) and ix < iy + len(oy):  # overlaps option x
        iy = text.find(oy, iy + 1)
    if iy < 0:
        return f"missing option: '{oy}' does not occur in the prompt"
    stem = stem_from_spans(text, [(ix, ix + len(ox)), (iy, iy + len(oy))])
    return stem, ("xy" if ix < iy else "yx")


class _RowParser:
    def __init__(self, table: TabularFile, topic: Topic, words: dict, reject):
        self.table, self.topic, self.words, self.reject = table, topic, words, reject

    def side_of(self, option: str) -> str | None:
        return self.words.get(tokens(option))

    def template(self, line: int, text: str, column: str) -> tuple[str, str, str, str]:
        many = _MORE_THAN_TWO.search(text)
        if many:
            self.reject(
                f"more than two options ('{many.group(0)}'): the bias score compares exactly "
                "two groups (paper 002); write the probe with two options",
                line,
                column,
            )
        found = list(_OR.finditer(text))
        for m in found:
            sa, sb = self.side_of(m["a"]), self.side_of(m["b"])
            if sa and sb:
                if sa == sb:
                    self.reject(
                        f"both options '{m['a']}' and '{m['b']}' name the same group", line, column
                    )
                stem = stem_from_spans(text, [m.span("a"), m.span("b")])
                ox, oy = (m["a"], m["b"]) if sa == "x" else (m["b"], m["a"])
                return stem, ox, oy, ("xy" if sa == "x" else "yx")
        if found:
            m = found[0]
            unknown = m["a"] if not self.side_of(m["a"]) else m["b"]
            self.reject(
                f"unknown group: option '{unknown}' names no group of topic '{self.topic.name}' "
                f"({self.topic.group_x}/{self.topic.group_y}); add it to the normalisation "
                "table or name the option columns",
                line,
                column,
            )
        self.reject("missing option: no 'X বা Y' pair of options in the prompt", line, column)
        raise AssertionError  # reject raises

    def natural(self, line: int, text: str, column: str, first: str, first_col: str):
        m = _NUMBERED.search(text)
        if m is None or not m["a"].strip(" ,") or not m["b"].strip(" ,"):
            self.reject(
                "missing option: the prompt does not end with 'উত্তর ১। …, ২। …'", line, column
            )
            raise AssertionError  # reject raises
        if not first:
            self.reject("missing option group: empty cell", line, first_col)
        side = self.topic.group(first)
        if side is None:
            self.reject(
                f"unknown group '{first}' (topic '{self.topic.name}' has "
                f"{self.topic.group_x}, {self.topic.group_y})",
                line,
                first_col,
            )
        a, b = m["a"], m["b"]
        said = self.side_of(a.strip(" ,-।."))
        if said is not None and said != side:
            self.reject(
                f"{first_col} says option 1 is {first!r}, but option 1 '{a}' names the other group",
                line,
                first_col,
            )
        stem = text[: m.start("a")] + "{a}" + text[m.end("a") : m.start("b")] + "{b}"
        stem += text[m.end("b") :]
        ox, oy = (a, b) if side == "x" else (b, a)
        return stem, ox, oy, ("xy" if side == "x" else "yx")

    def explicit(self, line: int, text: str, column: str, ox: str, oy: str, cols):
        for value, col in ((ox, cols[0]), (oy, cols[1])):
            if not value:
                self.reject("missing option: empty cell", line, col)
        found = locate_options(text, ox, oy)
        if isinstance(found, str):
            self.reject(found, line, column)
            raise AssertionError  # reject raises
        return found[0], ox, oy, found[1]


def import_probes(
    ws: Workspace,
    path: str | Path,
    *,
    name: str | None = None,
    kind: str | None = None,
    topic: str | None = None,
    groups: tuple[str, str] | None = None,
    id_col: str | None = None,
    prompt_col: str = "prompt",
    category_col: str | None = None,
    subcategory_col: str | None = None,
    topic_col: str | None = None,
    first_col: str | None = None,
    option_cols: tuple[str, str] | None = None,
    convert_bijoy: bool = False,
    file_format: str | None = None,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> ProbeReport:
    """``convert_bijoy``: legacy Bijoy prompt cells are converted (else refused)."""
    path = Path(path)
    table = load_table(ws)
    with TabularFile(path, file_format) as tab:
        cells = CellReader(tab, convert_bijoy=convert_bijoy)
        ticker = Ticker(tab, progress, cancelled)
        prompt_column = cells.column(prompt_col, "prompt text")
        cols = {
            "id": cells.optional_column(id_col, "ID", "probe id"),
            "category": cells.optional_column(category_col, "category", "category"),
            "subcategory": cells.optional_column(subcategory_col, "subcategory", "subcategory"),
            "topic": cells.optional_column(topic_col, "topic", "topic"),
            "first": cells.optional_column(first_col, "firstOption", "group of option 1"),
        }
        opt_cols = (
            (cells.column(option_cols[0], "option x"), cells.column(option_cols[1], "option y"))
            if option_cols
            else None
        )
        kind = kind or ("natural" if cols["first"] else "template")
        if kind not in ("template", "natural"):
            raise UserError(f"probe kind must be template or natural, not '{kind}'")
        if kind == "natural" and not cols["first"] and not opt_cols:
            cells.reject(
                "natural probes need a column naming the group of option 1 (firstOption)", 1
            )
        rows: list[tuple[int, dict]] = []
        for line, row in tab:
            ticker.row(len(rows) + 1)
            rows.append((line, row))
        ticker.check_cancel()
        the_topic = _resolve_topic(cells, rows, cols["topic"], topic, groups, table)
        parser = _RowParser(tab, the_topic, group_words(table, the_topic), cells.reject)
        probes: list[Probe] = []
        seen: dict[str, int] = {}
        for line, row in rows:
            text = cells.text(line, row, prompt_column, required=True, bengali=True)
            if "{a}" in text or "{b}" in text:
                cells.reject("the prompt contains '{a}' or '{b}', which mark option slots", line)
            ext_id = cells.text(line, row, cols["id"]) or str(line)
            if ext_id in seen:
                cells.reject(f"ID '{ext_id}' repeats line {seen[ext_id]}", line, cols["id"])
            seen[ext_id] = line
            if opt_cols:
                ox = cells.text(line, row, opt_cols[0])
                oy = cells.text(line, row, opt_cols[1])
                stem, ox, oy, order = parser.explicit(line, text, prompt_column, ox, oy, opt_cols)
            elif kind == "natural":
                first = cells.text(line, row, cols["first"])
                stem, ox, oy, order = parser.natural(
                    line, text, prompt_column, first, cols["first"] or ""
                )
            else:
                stem, ox, oy, order = parser.template(line, text, prompt_column)
            try:
                category, mixed = split_category(cells.text(line, row, cols["category"]))
                sub = subcategory_of(cells.text(line, row, cols["subcategory"]))
            except ValueError as exc:
                cells.reject(str(exc), line, cols["category"] or cols["subcategory"])
            probes.append(Probe(ext_id, stem, ox, oy, order, category, sub, mixed, line=line))
    report = ProbeReport(
        name=default_name(path, name),
        kind=kind,
        topic=the_topic.name,
        groups=the_topic.groups,
        path=str(path),
        rows_read=len(rows),
    )
    write_probe_set(ws, report, probes, source=str(path))
    return report


def _resolve_topic(cells, rows, topic_column, topic, groups, table) -> Topic:
    if topic or groups:
        return topic_for(topic or "custom", groups)
    named: collections.Counter[str] = collections.Counter()
    for line, row in rows:
        value = cells.text(line, row, topic_column).casefold()
        if value:
            if value not in BUILTIN_TOPICS:
                cells.reject(
                    f"unknown topic '{value}' (built in: {', '.join(BUILTIN_TOPICS)}; "
                    f"name another with {setting(Setting.TOPIC)} and {setting(Setting.GROUPS)})",
                    line,
                    topic_column,
                )
            named[value] += 1
    if len(named) > 1:
        raise ImportRejected(
            cells.path, f"one probe set holds one topic; the file mixes {', '.join(sorted(named))}"
        )
    if named:
        return BUILTIN_TOPICS[next(iter(named))]
    # No topic column: the topic whose group words the prompts use.
    hits: collections.Counter[str] = collections.Counter()
    for _, row in rows[:200]:
        text = " ".join(str(v) for v in row.values())
        words = set(tokens(text))
        for t in BUILTIN_TOPICS.values():
            if any(len(p) == 1 and p[0] in words for p in group_words(table, t)):
                hits[t.name] += 1
    if not hits:
        raise ImportRejected(
            cells.path,
            "cannot tell the topic (no topic column, no known group words); use "
            + setting(Setting.TOPIC),
        )
    best = hits.most_common(2)
    if len(best) > 1 and best[0][1] == best[1][1]:
        raise ImportRejected(
            cells.path, "cannot tell the topic (gender or religion?); use " + setting(Setting.TOPIC)
        )
    return BUILTIN_TOPICS[best[0][0]]


def write_probe_set(
    ws: Workspace,
    report: ProbeReport,
    probes: list[Probe],
    source: str,
    *,
    dialect: str = "standard",
    base_set_id: int | None = None,
) -> None:
    """One transaction: the set (created or reused) and its new probes."""
    now = utcnow()
    with ws.transaction() as conn:
        row = conn.execute(
            "SELECT id, kind, topic, group_x, group_y FROM probe_sets WHERE name = ?",
            (report.name,),
        ).fetchone()
        if row and (row[1], row[2], (row[3], row[4])) != (report.kind, report.topic, report.groups):
            raise UserError(
                f"probe set '{report.name}' exists as {row[1]} probes of topic {row[2]}; "
                f"choose another {setting(Setting.SET_NAME)}"
            )
        if not row:
            conn.execute(
                "INSERT INTO probe_sets(name, kind, topic, group_x, group_y, source, dialect, "
                "base_set_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    report.name,
                    report.kind,
                    report.topic,
                    *report.groups,
                    source,
                    dialect,
                    base_set_id,
                    now,
                ),
            )
        set_id = conn.execute(
            "SELECT id FROM probe_sets WHERE name = ?", (report.name,)
        ).fetchone()[0]
        report.set_id = set_id
        before = conn.total_changes
        conn.executemany(
            "INSERT INTO probe_items(set_id, ext_id, stem, option_x, option_y, source_order, "
            "category, subcategory, occupation_mixed, occupation, trait) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(set_id, ext_id) DO NOTHING",
            [
                (
                    set_id,
                    p.ext_id,
                    p.stem,
                    p.option_x,
                    p.option_y,
                    p.source_order,
                    p.category,
                    p.subcategory,
                    int(p.occupation_mixed),
                    p.occupation,
                    p.trait,
                )
                for p in probes
            ],
        )
        report.inserted = conn.total_changes - before
    report.already_present = len(probes) - report.inserted
    counts = collections.Counter(
        f"{p.category}{' +occupation' if p.occupation_mixed else ''}"
        f"{' / ' + p.subcategory if p.subcategory else ''}"
        for p in probes
    )
    report.by_category = dict(sorted(counts.items()))
    log.info(
        "probe set %s: %d new probes, %d present",
        report.name,
        report.inserted,
        report.already_present,
    )


def probe_set_summaries(ws: Workspace) -> list[dict]:
    """Every probe set: name, kind, topic, its two groups, dialect and number of probes."""
    return ws.query(
        "SELECT s.name, s.kind, s.topic, s.group_x, s.group_y, s.dialect, count(p.id) AS probes "
        "FROM probe_sets s LEFT JOIN probe_items p ON p.set_id = s.id GROUP BY s.id ORDER BY s.id"
    )
