"""``upabhasha run-task`` builds :class:`RunTaskRequest`: no option given, the request's
defaults; a bad value refused on one line naming its option."""

from __future__ import annotations

import pytest

from app.cli import build_parser, main
from engine.understanding.api import RunTaskRequest


def test_the_cli_without_options_builds_the_default_request():
    args = build_parser().parse_args(["run-task", "dialect-to-standard"])
    assert args.build_request(args) == RunTaskRequest()
    args = build_parser().parse_args(
        ["run-task", "dialect-id", "--models", "a,b", "--k-sweep", "0,2,2", "--constrained"]
    )
    request = args.build_request(args)
    assert request.task == "dialect-id" and request.models == ("a", "b")
    assert request.k_sweep == (0, 2) and request.constrained is True


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["--k-sweep", "0,-1"], "--k-sweep"),
        (["--k", "17"], "--k"),
        (["--scheme", "klingon"], "--scheme"),
        (["--split", "train"], "--split"),
        (["--regimes", "many"], "--regimes"),
        (["--items", "corpus"], "--items"),
    ],
)
def test_the_cli_names_the_option_of_a_bad_value(tmp_path, capsys, argv, option):
    try:
        code = main(["-w", str(tmp_path / "ws.sqlite"), "run-task", "dialect-id", *argv])
    except SystemExit as refused:  # refused while parsing
        code = refused.code
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and option in err and "⟦" not in err
