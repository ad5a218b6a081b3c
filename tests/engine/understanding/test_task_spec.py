"""Tasks as data: the built-in files validate; a malformed file is one line naming file and key."""

from __future__ import annotations

import pytest

from engine.errors import UserError
from engine.understanding.task_spec import all_tasks, builtin_dir, get_task, load_task_file

BUILT_IN = {
    "dialect-to-english",
    "dialect-to-standard",
    "subjectivity",
    "dialect-id",
    "classification",
}


def test_builtin_tasks_load():
    tasks = all_tasks()
    assert BUILT_IN <= set(tasks)
    assert tasks["dialect-to-standard"].copy_baseline
    assert tasks["dialect-id"].labels_from == "dialects"
    assert tasks["subjectivity"].labels == ("subjective", "objective")
    for spec in tasks.values():
        assert set(spec.prompts) == {"zero", "few", "cot", "demo"}


def _variant(
    tmp_path,
    replace: tuple[str, str] | None = None,
    append: str = "",
    name: str = "dialect-to-standard",
):
    text = (builtin_dir() / f"{name}.toml").read_text(encoding="utf-8")
    if replace:
        assert replace[0] in text
        text = text.replace(replace[0], replace[1], 1)
    path = tmp_path / f"{name}.toml"
    path.write_text(text + append, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("replace", "append", "key"),
    [
        (('kind = "generation"', 'kind = "regression"'), "", "kind"),
        (('target = "standard"\n', ""), "", "target"),
        (('metrics = ["bleu"', 'metrics = ["bleurt"'), "", "metrics"),
        (('Sentence: $input\nJSON:"""\nfew', 'Sentence: \nJSON:"""\nfew'), "", "prompts.zero"),
        (("$demos", "$demo_block"), "", "prompts.few"),
        (("copy_baseline = true", 'copy_baseline = "yes"'), "", "copy_baseline"),
        (None, 'colour = "red"\n', "prompts.colour"),
        (('title = "Normalise', 'colour = 1\ntitle = "Normalise'), "", "colour"),
        (('sources = ["pairs", "items"]', "sources = []"), "", "sources"),
    ],
)
def test_malformed_task_file_names_file_and_key(tmp_path, replace, append, key):
    path = _variant(tmp_path, replace, append)
    with pytest.raises(UserError) as err:
        load_task_file(path)
    message = str(err.value)
    assert "\n" not in message
    assert str(path) in message and f"key '{key}'" in message


def test_not_toml_and_wrong_name(tmp_path):
    bad = tmp_path / "x.toml"
    bad.write_text("name = [unclosed\n", encoding="utf-8")
    with pytest.raises(UserError, match="not valid TOML"):
        load_task_file(bad)
    renamed = tmp_path / "other.toml"
    renamed.write_text(_variant(tmp_path).read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(UserError, match="key 'name'.*must match the file name"):
        load_task_file(renamed)


def test_user_task_overrides_builtin_and_unknown_task(tmp_path):
    _variant(tmp_path, ('title = "Normalise', 'title = "Mine: normalise'))
    assert get_task("dialect-to-standard", tmp_path).title.startswith("Mine")
    with pytest.raises(UserError, match="no task 'nope'"):
        get_task("nope", tmp_path)
