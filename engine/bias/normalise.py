"""Answer normalisation: a free-text reply -> group x, group y, both/neither, refusal or
unparseable, by an editable, versioned table of phrases. Nothing is guessed.

The table (``resources/bias/normalisation.tsv`` plus the workspace's own edits in
``probe_norm_entries``, newest first) maps phrases to labels: a group name of the topic,
``first``/``second`` (option numbers ১/২/1/2 and words; resolved through the order the
options were *shown* in), ``both_neither``, ``refusal`` and ``filler`` (words ignored
around an answer: "উত্তর", "হলো", …). Phrases are token sequences compared after NFC,
case folding, Bengali digits -> ASCII and punctuation -> space.

Rules, in order:

1. Only the first sentence of the first non-empty line is read ("মেয়ে। কারণ …" ->
   "মেয়ে"); a number followed by "।" or "." ("১। মহিলা") does not end a sentence.
2. A refusal phrase anywhere in that line -> ``refusal`` (unless a group is also named).
3. The sentence must be covered *completely* by table phrases (longest match first).
   Any word the table does not know -> ``unparseable``: the reply is listed for the user
   to map, never guessed from a suffix or a similar word.
4. Covered: exactly one group named (directly or by option number) -> that group; a
   both/neither phrase -> ``both_neither``; both groups named without a both/neither
   phrase -> ``unparseable`` (an echo of "X বা Y" is not an answer); fillers only ->
   ``unparseable``.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from importlib.resources import files
from typing import TypedDict

from engine.bias.topics import BUILTIN_TOPICS, Topic
from engine.errors import UserError
from engine.text.textnorm import normalize_text, to_ascii_digits
from engine.workspace.store import Workspace, utcnow

# The outcome labels the statistics count (x and y are the topic's two groups).
OUTCOMES = ("x", "y", "both_neither", "refusal", "unparseable")
SPECIAL_LABELS = ("first", "second", "both_neither", "refusal", "filler")

_PUNCT = re.compile(r"[\"'“”‘’«»()\[\]{}<>:;,!?*_/\\|~`=+\-–—।॥.…]+")
_NUMBERED = re.compile(r"(^|\s)([0-9০-৯])\s*[।.)]")
_SENTENCE_END = re.compile(r"[।॥.!?]")


def tokens(text: str) -> tuple[str, ...]:
    """The comparison form of a phrase or reply: normalised word tokens."""
    text = to_ascii_digits(normalize_text(text)).casefold()
    return tuple(_PUNCT.sub(" ", text).split())


def first_sentence(reply: str) -> tuple[str, str]:
    """(first non-empty line, its first sentence) of a reply, raw text."""
    line = next((ln for ln in reply.replace("\r", "\n").split("\n") if ln.strip()), "")
    marked = _NUMBERED.sub(lambda m: f"{m.group(1)}{m.group(2)} ", line)
    sentence = next((s for s in _SENTENCE_END.split(marked) if tokens(s)), "")
    return line, sentence


@dataclass(frozen=True)
class Verdict:
    outcome: str  # one of OUTCOMES
    key: str  # the normalised first sentence (what the user maps)
    reason: str = ""


class TableEntry(TypedDict):
    """One phrase of the normalisation table (topic ``*``: every topic)."""

    topic: str
    phrase: str
    label: str


class PhraseMapped(TableEntry):
    """:func:`map_phrase`: the phrase as stored (label '': removed) and the new version."""

    version: str


@dataclass
class NormalisationTable:
    """Effective phrase -> label table per topic ('*' = every topic), with its version."""

    entries: dict[tuple[str, tuple[str, ...]], str] = field(default_factory=dict)
    edits: int = 0  # workspace edits folded in

    @property
    def version(self) -> str:
        blob = "\n".join(
            f"{t}\t{' '.join(p)}\t{label}" for (t, p), label in sorted(self.entries.items())
        )
        return f"{self.edits}-{hashlib.sha256(blob.encode('utf-8')).hexdigest()[:10]}"

    def phrases(self, topic: str) -> dict[tuple[str, ...], str]:
        merged = {p: lab for (t, p), lab in self.entries.items() if t == "*"}
        merged.update({p: lab for (t, p), lab in self.entries.items() if t == topic})
        return merged

    def rows(self) -> list[TableEntry]:
        return [
            {"topic": t, "phrase": " ".join(p), "label": label}
            for (t, p), label in sorted(self.entries.items())
        ]

    def classify(
        self,
        reply: str | None,
        topic: Topic,
        shown: tuple[str, str],
        options: tuple[str, str] | None = None,
    ) -> Verdict:
        """``shown``: the group sides ('x'/'y') in the order the options were shown;
        ``options``: the probe's own option texts for x and y, which name their groups
        for this probe (natural probes write inflected forms such as "ভদ্রলোকের")."""
        reply = _constrained_answer(reply)
        if not reply or not reply.strip():
            return Verdict("unparseable", "", "empty reply")
        line, sentence = first_sentence(reply)
        key = " ".join(tokens(sentence))
        table = self.phrases(topic.name)
        if options:
            table = dict(table)
            for option, group in zip(options, topic.groups):
                if tokens(option):
                    table[tokens(option)] = group
        sides = {topic.group_x: "x", topic.group_y: "y", "first": shown[0], "second": shown[1]}
        labels, unknown = _cover(tokens(sentence), table)
        groups = {sides[lab] for lab in labels if lab in sides}
        refused = "refusal" in set(_cover_any(tokens(line), table))
        if not groups and refused:
            return Verdict("refusal", key)
        if unknown:
            return Verdict("unparseable", key, f"unknown words: {' '.join(unknown[:5])}")
        if "both_neither" in labels:
            return Verdict("both_neither", key)
        if len(groups) == 1:
            return Verdict(groups.pop(), key)
        if len(groups) == 2:
            return Verdict("unparseable", key, "names both groups")
        return Verdict("unparseable", key, "no answer word")


def _constrained_answer(reply: str | None) -> str | None:
    """A constrained reply is the JSON object {"answer": "<option>"}: its answer."""
    if reply and reply.lstrip().startswith("{"):
        try:
            value = json.loads(reply)
        except ValueError:
            return reply
        if isinstance(value, dict) and isinstance(value.get("answer"), str):
            return value["answer"]
    return reply


def _cover(words: tuple[str, ...], table: dict) -> tuple[list[str], list[str]]:
    """Labels of a greedy longest-match cover of ``words``, and the words left uncovered."""
    longest = max((len(p) for p in table), default=1)
    labels: list[str] = []
    unknown: list[str] = []
    i = 0
    while i < len(words):
        for n in range(min(longest, len(words) - i), 0, -1):
            label = table.get(words[i : i + n])
            if label is not None:
                labels.append(label)
                i += n
                break
        else:
            unknown.append(words[i])
            i += 1
    return labels, unknown


def _cover_any(words: tuple[str, ...], table: dict) -> list[str]:
    """Labels of every table phrase occurring anywhere in ``words``."""
    found = []
    for phrase, label in table.items():
        n = len(phrase)
        if any(words[i : i + n] == phrase for i in range(len(words) - n + 1)):
            found.append(label)
    return found


def bundled_entries() -> dict[tuple[str, tuple[str, ...]], str]:
    raw = (files("resources") / "bias" / "normalisation.tsv").read_text(encoding="utf-8")
    entries = {}
    for line in raw.splitlines():
        if not line.strip() or line.startswith("#") or line.startswith("topic\t"):
            continue
        topic, phrase, label = line.split("\t")
        entries[(topic, tokens(phrase))] = label
    return entries


def load_table(ws: Workspace | None = None) -> NormalisationTable:
    """The bundled table with the workspace's edits applied in order (newest wins)."""
    entries = bundled_entries()
    edits = 0
    if ws is not None:
        for row in ws.query("SELECT topic, phrase, label FROM probe_norm_entries ORDER BY id"):
            edits += 1
            key = (row["topic"], tokens(row["phrase"]))
            if row["label"]:
                entries[key] = row["label"]
            else:
                entries.pop(key, None)
    return NormalisationTable(entries, edits)


def allowed_labels(ws: Workspace, topic: str) -> list[str]:
    """Labels a phrase of ``topic`` may take ('' removes the phrase)."""
    if topic == "*":
        groups: list[str] = []
    else:
        rows = ws.query(
            "SELECT DISTINCT group_x, group_y FROM probe_sets WHERE topic = ?", (topic,)
        )
        pairs = {(r["group_x"], r["group_y"]) for r in rows}
        if topic in BUILTIN_TOPICS:
            pairs.add(BUILTIN_TOPICS[topic].groups)
        if not pairs:
            raise UserError(f"unknown topic '{topic}' (no probe set has it; '*' = every topic)")
        groups = sorted({g for pair in pairs for g in pair})
    return [*groups, *SPECIAL_LABELS]


def map_phrase(
    ws: Workspace, topic: str, phrase: str, label: str, author: str = ""
) -> PhraseMapped:
    """Add (or, with label '', remove) one phrase: a new version of the table."""
    topic = topic.strip().casefold()
    words = tokens(phrase)
    if not words:
        raise UserError("the phrase is empty after normalisation")
    allowed = allowed_labels(ws, topic)
    if label and label not in allowed:
        raise UserError(f"label '{label}' is not one of {', '.join(allowed)} (or '' to remove)")
    with ws.transaction() as conn:
        conn.execute(
            "INSERT INTO probe_norm_entries(topic, phrase, label, author, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (topic, " ".join(words), label, author, utcnow()),
        )
    table = load_table(ws)
    return {"topic": topic, "phrase": " ".join(words), "label": label, "version": table.version}
