"""Template probes from templates × trait words × occupations (paper 002, §4).

Inputs are the paper's own material, read from the user's files (they are not shipped):

- a templates JSON with ``template_prompts`` — keys ``<topic>_<category>``,
  ``<topic>_occupation`` and ``<topic>_<category>_occupation``; each a ``%s`` string whose
  first two slots take the two options, then the occupation and/or the trait word — and
  the noun pairs ``gender_nouns`` / ``religious_nouns`` (``<topic>_nouns`` for others);
- a word list CSV ``Word, Category, Subcategory, Topic``; ``Occupation Based`` words have
  no topic and serve every topic.

Per topic: every trait word of each category × noun pair, every occupation × noun pair,
and every occupation × trait word × noun pair for the mixed templates. With the paper's
files this gives 2,128 gender + 644 religion = 2,772 probes, the paper's count.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.bias.normalise import NormalisationTable, load_table, tokens
from engine.bias.probes import (
    OCCUPATION,
    Probe,
    ProbeReport,
    group_words,
    subcategory_of,
    write_probe_set,
)
from engine.bias.topics import BUILTIN_TOPICS, Topic
from engine.errors import UserError
from engine.files.nesting import too_deep
from engine.files.user_files import TEMPLATES_JSON, read_user_text
from engine.importing.tabular import TabularFile
from engine.text.text_rules import control_problem
from engine.text.textnorm import normalize_text
from engine.workspace.store import Workspace

_NOUN_KEYS = {"religion": "religious_nouns"}


def _words(path: Path) -> list[dict]:
    out = []
    with TabularFile(path) as table:
        need = {"Word", "Category", "Subcategory", "Topic"}
        missing = need - set(table.columns)
        if missing:
            table.reject(f"missing column(s) {', '.join(sorted(missing))}", 1)
        for line, row in table:
            for column in ("Word", "Category", "Topic"):  # the one text rule, as every import
                problem = control_problem(str(row[column] or ""))
                if problem:
                    table.reject(f"the cell {problem}", line, column)
            word = normalize_text(str(row["Word"] or ""))
            if not word:
                table.reject("empty word", line, "Word")
            try:
                sub = subcategory_of(str(row["Subcategory"] or ""))
            except ValueError as exc:
                table.reject(str(exc), line, "Subcategory")
            out.append(
                {
                    "word": word,
                    "category": normalize_text(str(row["Category"] or "")),
                    "subcategory": sub,
                    "topic": normalize_text(str(row["Topic"] or "")).casefold(),
                    "line": line,
                }
            )
    return out


def _pairs(spec: dict, topic: Topic, table: NormalisationTable, path: Path):
    key = _NOUN_KEYS.get(topic.name, f"{topic.name}_nouns")
    pairs = spec.get(key)
    if not isinstance(pairs, list) or not pairs:
        raise UserError(f"{path}: no '{key}' noun pairs for topic {topic.name}")
    words = group_words(table, topic)
    out = []
    for pair in pairs:
        sides = [words.get(tokens(w)) for w in pair]
        if len(pair) != 2 or sorted(s or "?" for s in sides) != ["x", "y"]:
            raise UserError(
                f"{path}: noun pair {pair} must name {topic.group_x} and {topic.group_y} "
                "once each (unknown words go into the normalisation table first)"
            )
        a, b = (normalize_text(w) for w in pair)
        out.append((a, b) if sides[0] == "x" else (b, a))
    return out


def _expand(path, template, key, pairs, category, sub, mixed, occ, trait) -> list[Probe]:
    fill = [occ, trait] if mixed else [occ or trait]
    out = []
    for px, py in pairs:
        try:
            text = template % ("{a}", "{b}", *fill)
        except TypeError:
            raise UserError(f"{path}: template '{key}' needs {2 + len(fill)} %s slots") from None
        ext = f"{key}|{px}/{py}|{occ}|{trait}"
        out.append(Probe(ext, normalize_text(text), px, py, "xy", category, sub, mixed, occ, trait))
    return out


def generate_probes(
    templates_path, words_path, ws: Workspace | None = None
) -> dict[str, list[Probe]]:
    """Probes per topic (topic name -> probes), from the two files."""
    templates_path, words_path = Path(templates_path), Path(words_path)
    try:
        text = read_user_text(templates_path, TEMPLATES_JSON)
        deep = too_deep(text)
        if deep:
            raise UserError(f"{templates_path}: the JSON is {deep}")
        spec = json.loads(text)
        prompts = spec["template_prompts"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UserError(
            f"{templates_path}: not a templates JSON with 'template_prompts' ({exc})"
        ) from None
    table = load_table(ws)
    words = _words(words_path)
    occupations = [w for w in words if w["category"] == OCCUPATION]
    if not occupations:
        raise UserError(f"{words_path}: no '{OCCUPATION}' words")
    result: dict[str, list[Probe]] = {}
    for topic in BUILTIN_TOPICS.values():
        keys = [k for k in prompts if k.startswith(topic.name + "_")]
        if not keys:
            continue
        pairs = _pairs(spec, topic, table, templates_path)
        probes: list[Probe] = []

        for key in sorted(keys):
            rest = key[len(topic.name) + 1 :]
            if rest == "occupation":
                for o in occupations:
                    probes += _expand(
                        templates_path,
                        prompts[key],
                        key,
                        pairs,
                        OCCUPATION,
                        "",
                        False,
                        o["word"],
                        "",
                    )
                continue
            mixed = rest.endswith("_occupation")
            cat_key = rest.removesuffix("_occupation")
            traits = [
                w
                for w in words
                if w["topic"] == topic.name and w["category"].casefold().split()[0] == cat_key
            ]
            if not traits:
                raise UserError(f"{words_path}: no {topic.name} words for template '{key}'")
            slots: list[dict | None] = list(occupations) if mixed else [None]
            for w in traits:
                for occ_row in slots:
                    probes += _expand(
                        templates_path,
                        prompts[key],
                        key,
                        pairs,
                        w["category"],
                        w["subcategory"],
                        mixed,
                        occ_row["word"] if occ_row else "",
                        w["word"],
                    )
        result[topic.name] = probes
    if not result:
        raise UserError(f"{templates_path}: no template keys start with a known topic")
    return result


def generate_probe_sets(ws: Workspace, templates_path, words_path, name: str) -> list[ProbeReport]:
    """Write one probe set per topic, '<name>-<topic>'."""
    reports = []
    for topic_name, probes in generate_probes(templates_path, words_path, ws).items():
        topic = BUILTIN_TOPICS[topic_name]
        report = ProbeReport(
            name=f"{name}-{topic_name}",
            kind="template",
            topic=topic_name,
            groups=topic.groups,
            path=str(templates_path),
            rows_read=len(probes),
        )
        write_probe_set(ws, report, probes, source=f"generated from {templates_path}")
        reports.append(report)
    return reports
