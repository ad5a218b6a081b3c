"""Regimes: few-shot demonstrations come only from the train split, never the evaluated item
or a copy of it, resampled per query with a recorded seed; prompts and schemas."""

from __future__ import annotations

import csv
from collections import Counter

import pytest

from engine.errors import UserError
from engine.text.textnorm import canonical_key
from engine.understanding import regimes as rg
from engine.understanding.items import Item
from engine.understanding.task_spec import get_task

DIALECTS = ("barishal", "chittagong", "mymensingh", "noakhali", "sylhet")


def _vashantor_items(shared_data) -> list[Item]:
    path = shared_data / "vashantor" / "vashantor_multiway.csv"
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    items, n = [], 0
    split_of = {"train": "train", "test": "test", "validation_or_unknown": "validation"}
    with path.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            for d in DIALECTS:
                n += 1
                items.append(
                    Item(
                        n,
                        f"pair{n}",
                        d,
                        split_of[row["vashantor_split"]],
                        row[d],
                        refs={"standard": [row["bangla_speech"]]},
                        label=d,
                    )
                )
    return items


def test_no_few_shot_leakage_on_vashantor(shared_data):
    spec = get_task("dialect-to-standard")
    items = _vashantor_items(shared_data)
    pool = rg.demo_pool(spec, items)
    evaluated = [i for i in items if i.split == "validation"]
    train_keys = {i.key for i in items if i.split == "train"}
    evaluated_refs = {canonical_key(r) for i in evaluated for r in i.refs["standard"]}
    used = Counter()
    for query in evaluated:
        demos = rg.sample_demos(spec, query, pool, 6, seed=7)
        assert len(demos) == 6 * len(DIALECTS)
        assert Counter(d.dialect for d in demos) == {d: 6 for d in DIALECTS}
        for demo in demos:
            assert demo.key in train_keys and demo.split == "train"
            assert canonical_key(demo.native) != canonical_key(query.native)
            # no demonstration shares a reference with any evaluated item
            assert canonical_key(demo.refs["standard"][0]) not in evaluated_refs
        used.update(d.key for d in demos)
        assert demos == rg.sample_demos(spec, query, pool, 6, seed=7)  # recorded seed
    assert len(used) > 2000  # resampled per query, not one fixed block
    other = rg.sample_demos(spec, evaluated[0], pool, 6, seed=8)
    assert other != rg.sample_demos(spec, evaluated[0], pool, 6, seed=7)


def test_a_copy_of_the_query_in_train_is_never_a_demo():
    spec = get_task("dialect-to-standard")
    query = Item(1, "item1", "sylhet", "test", "তুমি কই যাইরায়", refs={"standard": ["ক"]})
    copy = Item(2, "item2", "sylhet", "train", "তুমি  কই যাইরায়", refs={"standard": ["খ"]})
    same_ref = Item(3, "item3", "sylhet", "train", "অন্য", refs={"standard": ["ক"]})
    fine = Item(4, "item4", "sylhet", "train", "আরেক", refs={"standard": ["গ"]})
    pool = rg.demo_pool(spec, [query, copy, same_ref, fine])
    for seed in range(20):
        assert rg.sample_demos(spec, query, pool, 3, seed) == (fine,)
    with pytest.raises(UserError, match="train split"):
        rg.sample_demos(spec, fine, pool, 1, 0)


def test_prompts_schema_and_romanized_demos():
    spec = get_task("dialect-id")
    query = Item(1, "item1", "sylhet", "test", "তুমি কই যাইরায়", label="sylhet")
    demo = Item(2, "item2", "chittagong", "train", "তুঁই কডে যর", label="chittagong")
    shown = rg.Shown(query, "roman", "tumi koi jairay", (demo,))
    labels = ["chittagong", "sylhet"]
    text = rg.build_prompt(spec, "few", shown, labels, {"item2": "tuin kode jor"})
    assert "tumi koi jairay" in text and "tuin kode jor" in text and "তুঁই" not in text
    assert '{"label": "chittagong"}' in text and "chittagong, sylhet" in text
    cot = rg.build_prompt(spec, "cot", shown, labels, {})
    assert "8. Consistency check" in cot
    request = rg.build_request(spec, "zero", shown, labels, {}, rg.sampler_for("zero"), True)
    assert request.json_schema["properties"]["label"]["enum"] == labels
    assert (
        rg.build_request(spec, "zero", shown, labels, {}, rg.sampler_for("zero"), False).json_schema
        is None
    )
