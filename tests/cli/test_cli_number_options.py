"""One number grammar and a stated range for every number option, and the bad paths and
values a hostile tester found refused in one line with exit 2 and the workspace unchanged
(the runner and workspace of tests/cli/test_cli_hostile_inputs.py)."""

from __future__ import annotations

import argparse
import os

import pytest

from app.cli import arguments, build_parser, main
from engine.llm.runs import step_request
from engine.scales import parse_number, parse_whole
from engine.stats import settings as stat_settings
from tests.cli.test_cli_hostile_inputs import hostile  # noqa: F401 - the shared workspace
from tests.cli.test_cli_hostile_inputs import (
    test_hostile_case_exits_2_with_one_line_and_changes_nothing as _runner,
)

HUGE = "99999999999999999999999"
CASES = [
    ("batch import deep JSON", ["batch", "import", "{deep_json}"], "1 refused line"),
    (
        "adapter add a symlink loop",
        ["adapter", "add", "never-asked", "{loop}", "--name", "lora"],
        "symbolic link loop",
    ),
    ("bias-stats --resamples huge", ["bias-stats", "--resamples", HUGE], "--resamples"),
    ("agreement --resamples huge", ["agreement", "--resamples", HUGE], "from 1 to 100000"),
    ("stats --seed huge", ["stats", "--seed", HUGE], "--seed"),
    ("generate --max-tokens 10^23", ["generate", "--max-tokens", "1" + "0" * 23], "--max-tokens"),
    ("generate --limit 5000 digits", ["generate", "--limit", "9" * 5000], "--limit"),
    ("generate --n-seq 5000", ["generate", "--n-seq", "5000"], "from 1 to 4096"),
    ("generate --model 5,000 characters", ["generate", "--model", "m" * 5000], "200 characters"),
    ("generate --model ''", ["generate", "--model", ""], "--model"),
    (
        "models add --name 5,000 characters",
        ["models", "add", "http://127.0.0.1:9/v1", "--api-model", "m", "--name", "m" * 5000],
        "has 5000 characters, over the 200 a name may have",
    ),
    (
        "models add --api-model 5,000 characters",
        ["models", "add", "http://127.0.0.1:9/v1", "--api-model", "m" * 5000],
        "--api-model",
    ),
    (
        "review bulk --reviewer 5,000 characters",
        ["review", "bulk", "--from", "draft", "--to", "gold", "--reviewer", "r" * 5000],
        "--reviewer",
    ),
    ("generate --dialect ''", ["generate", "--dialect", ""], "--dialect"),
    ("generate --status ','", ["generate", "--status", ","], "--status"),
    ("probe --sets ''", ["probe", "--sets", ""], "--sets"),
    ("judge --judge ''", ["judge", "--judge", ""], "--judge"),
    ("index --encoder ''", ["index", "--encoder", ""], "--encoder"),
    ("baseline --csv ZWSP", ["baseline", "--csv", "\u200b"], "only invisible"),
    ("report --out ZWSP", ["report", "--out", "\u200b"], "give a folder name"),
    ("eval-metrics --encoder ' '", ["eval-metrics", "--encoder", " "], "--encoder"),
    ("baseline --split ZWSP", ["baseline", "--split", "\u200b"], "--split"),
    ("probes table --topic ''", ["probes", "table", "--topic", ""], "--topic"),
    ("demo --dialects ''", ["demo", "--dialects", ""], "--dialects"),
    ("queue --threshold 6", ["queue", "--threshold", "6"], "from 0 to 5"),
    ("override --final 11", ["override", "1", "--final", "11"], "[0, 10]"),
    ("bias-stats --resamples Devanagari 5", ["bias-stats", "--resamples", "५"], "not a whole"),
    ("ppi --width 1e999", ["ppi", "--width", "1e999"], "not a number"),
]


@pytest.fixture(scope="module")
def bounded(hostile):  # noqa: F811
    path, files, data = hostile
    loop = files["dir"].parent / "loop.gguf"
    if not loop.is_symlink():
        os.symlink(loop, loop)
    files["loop"] = loop
    return hostile


@pytest.mark.parametrize("case,argv,expected", CASES, ids=[c[0] for c in CASES])
def test_bad_value_exits_2_with_one_line_and_changes_nothing(
    bounded, capsys, monkeypatch, case, argv, expected
):
    _runner(bounded, capsys, monkeypatch, case, argv, expected)


WORKSPACES = {
    "/dev/null": ("/dev/null", "not a regular file"),
    "a FIFO": ("{tmp}/fifo", "not a regular file"),
    "in /proc": ("/proc/ws.sqlite", "cannot be opened or created|no such workspace"),
    "a name too long": (
        "{tmp}/" + "a" * 300 + ".sqlite",
        "cannot be opened or created|over the 200 a name may have",
    ),
    "under a file": ("/etc/passwd/ws.sqlite", "cannot be opened or created"),
}


@pytest.mark.parametrize("case", list(WORKSPACES))
@pytest.mark.parametrize("command", ["status", "init"])
def test_a_workspace_path_that_cannot_be_one_is_refused(tmp_path, capsys, case, command):
    target, expected = WORKSPACES[case]
    target = target.format(tmp=tmp_path)
    if case == "a FIFO":
        os.mkfifo(target)
    code = main(["-w", target, command])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert any(e in err for e in expected.split("|")) and "internal error" not in err, err


def _number_options():
    """(command, option, its type) of every option that takes a number."""

    def walk(parser, path):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield from walk(sub, [*path, name])
            elif getattr(action.type, "range_text", None):
                yield " ".join(path), action

    return list(walk(build_parser(), []))


NUMBER_OPTIONS = _number_options()


def test_every_option_typed_as_a_number_states_its_range():
    assert len(NUMBER_OPTIONS) >= 80
    untyped = []
    for path, action in _all_actions():
        if action.type in (int, float):
            untyped.append((path, action.dest))
    assert not untyped, untyped
    for path, action in NUMBER_OPTIONS:
        assert f"(range {action.type.range_text})" in action.help, (path, action.dest)


def _all_actions():
    def walk(parser, path):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield from walk(sub, [*path, name])
            else:
                yield " ".join(path), action

    return list(walk(build_parser(), []))


BENGALI = {"1": "১", "0": "০", "0.5": "০.৫"}


@pytest.mark.parametrize(
    "path,action", NUMBER_OPTIONS, ids=[f"{p} {a.dest}" for p, a in NUMBER_OPTIONS]
)
def test_every_number_option_reads_the_one_grammar(path, action):
    parse = action.type
    ascii_text, bengali = next((a, b) for a, b in BENGALI.items() if _takes(parse, a))
    plain = parse(ascii_text)
    assert parse(bengali) == plain and parse(f" {bengali} ") == plain  # Bengali digits, spaces
    for bad in ("१", "١", "8_0", "nan", "inf", "", " ", "1e", "0x1"):  # other scripts' digits
        with pytest.raises(argparse.ArgumentTypeError):
            parse(bad)
    with pytest.raises(argparse.ArgumentTypeError):
        parse("9" * 5000)  # beyond every range, and no ValueError from int()


def _takes(parse, text: str) -> bool:
    try:
        parse(text)
    except argparse.ArgumentTypeError:
        return False
    return True


def test_the_grammar_in_the_engine():
    assert parse_whole("৪২") == 42 and parse_whole(" -7 ") == -7 and parse_whole("4.0") is None
    assert parse_number("৩.৫") == 3.5 and parse_number("1e3") == 1000.0
    assert parse_number("४") is None and parse_number("1e999") is None
    assert parse_whole("9" * 5000) > 10**30


def test_the_cli_states_the_requests_bounds():
    names = ("MAX_COUNT", "MAX_INTEGER", "MAX_TOKENS", "MAX_N_SEQ", "MAX_REFILL", "MAX_NAME_CHARS")
    for name in names:
        assert getattr(arguments, name) == getattr(step_request, name), name
    assert arguments.MAX_RESAMPLES == stat_settings.MAX_RESAMPLES
