"""Item import: all-or-nothing, several references, one-line errors; pairs as items."""

from __future__ import annotations

import json

import pytest

from engine.errors import UserError
from engine.understanding.items import import_items, item_sets, load_items

GOOD = """id,dialect,text,roman,standard,standard2,english,label,split
1,sylhet,তুমি কই যাইরায়,tumi koi jairay,তুমি কোথায় যাচ্ছ,তুমি কোথায় যাও,Where are you going,subjective,test
2,chittagong,আঁই বাজারত যাইদ্দি,,আমি বাজারে যাচ্ছি,,I am going to the market,objective,train
3,standard,আমি বাজারে যাচ্ছি,,আমি বাজারে যাচ্ছি,,I am going to the market,objective,train
"""


def _counts(ws):
    return {t: ws.scalar(f"SELECT count(*) FROM {t}") for t in ("task_item_sets", "task_items")}


def test_import_items_with_references_and_labels(workspace, tmp_path):
    path = tmp_path / "items.csv"
    path.write_text(GOOD, encoding="utf-8")
    kwargs = dict(
        roman_col="roman",
        standard_cols=["standard", "standard2"],
        english_cols=["english"],
        label_col="label",
    )
    report = import_items(workspace, path, **kwargs)
    assert report.inserted == 3 and report.by_dialect["sylhet"]["splits"] == {"test": 1}
    items = {i.key: i for i in load_items(workspace, "items:items")}
    first = next(i for i in items.values() if i.dialect == "sylhet")
    assert first.refs == {
        "standard": ["তুমি কোথায় যাচ্ছ", "তুমি কোথায় যাও"],
        "english": ["Where are you going"],
    }
    assert first.roman == "tumi koi jairay" and first.label == "subjective"
    assert import_items(workspace, path, **kwargs).inserted == 0  # re-import adds nothing
    assert item_sets(workspace) == [{"name": "items", "source": str(path), "items": 3}]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (GOOD + "4,atlantis,কিছু একটা,,আমি,,x,objective,test\n", "line 5, column 'dialect'"),
        (GOOD + "4,sylhet,,,আমি,,x,objective,test\n", "line 5, column 'text'"),
        (GOOD + "4,sylhet,কিছু,,আমি,,x,objective,someday\n", "line 5, column 'split'"),
        (GOOD + "4,sylhet,কিছু,,,,x,objective,test\n", "line 5, column 'standard'"),
        (GOOD + "4,sylhet,তুমি কই যাইরায়,,আমি,,x,objective,train\n", "line 5: the same sylhet"),
    ],
)
def test_bad_item_file_is_one_line_and_changes_nothing(workspace, tmp_path, text, where):
    good = tmp_path / "first.csv"
    good.write_text(GOOD, encoding="utf-8")
    import_items(workspace, good, standard_cols=["standard"], label_col="label")
    before = _counts(workspace)
    bad = tmp_path / "bad.csv"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as err:
        import_items(workspace, bad, name="first", standard_cols=["standard"], label_col="label")
    message = str(err.value)
    assert "\n" not in message and str(bad) in message and where in message
    assert _counts(workspace) == before


def test_missing_column_is_named(workspace, tmp_path):
    path = tmp_path / "items.csv"
    path.write_text(GOOD, encoding="utf-8")
    with pytest.raises(UserError, match="no column 'english_text'"):
        import_items(workspace, path, english_cols=["english_text"])
    assert _counts(workspace) == {"task_item_sets": 0, "task_items": 0}


def test_pairs_serve_as_items(pairs_ws):
    items = load_items(pairs_ws, "pairs", ["sylhet"])
    assert len(items) == 5 and {i.dialect for i in items} == {"sylhet"}
    assert items[0].key == f"pair{items[0].source_id}" and items[0].label == "sylhet"
    assert json.dumps(items[0].refs, ensure_ascii=False).startswith('{"standard": [')
    with pytest.raises(UserError, match="no item set 'nope'"):
        load_items(pairs_ws, "items:nope")


def test_sample_task_items_import_and_serve_every_task(workspace):
    from importlib.resources import files

    from engine.understanding import regimes as rg
    from engine.understanding.task_spec import get_task

    path = files("resources") / "sample" / "task_items.csv"
    report = import_items(
        workspace,
        str(path),
        standard_cols=["standard"],
        english_cols=["english"],
        label_col="subjectivity",
    )
    assert report.inserted == 363
    items = load_items(workspace, "items:task_items")
    for task in ("dialect-to-english", "dialect-to-standard", "subjectivity", "dialect-id"):
        spec = get_task(task)
        evaluated = [i for i in items if i.split == "validation" and rg.target_of(spec, i)]
        assert len(evaluated) == 36, task  # 12 validation sentences x 3 dialects
    assert rg.labels_for(get_task("subjectivity"), items) == ["subjective", "objective"]


@pytest.mark.parametrize(
    ("payload", "where"),
    [
        (b"dialect,text\nsylhet,\x00abc\n", "line 2"),  # NUL: binary or UTF-16 without BOM
        (b"dialect,text\nsylhet,\xff\xfe bad\n", "line 2"),  # not UTF-8
        ("dialect,text\nsylhet," + "ক" * 40_000 + "\n", "column 'text'"),  # over the cell limit
    ],
)
def test_hostile_item_files_are_refused_by_the_shared_guards(workspace, tmp_path, payload, where):
    path = tmp_path / "hostile.csv"
    if isinstance(payload, str):
        path.write_text(payload, encoding="utf-8")
    else:
        path.write_bytes(payload)
    with pytest.raises(UserError) as err:
        import_items(workspace, path)
    assert "\n" not in str(err.value) and where in str(err.value)
    assert _counts(workspace) == {"task_item_sets": 0, "task_items": 0}
