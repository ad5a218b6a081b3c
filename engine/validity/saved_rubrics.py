"""The rubric a judge run was judged with, where it is not the bundled one: a suite must send
the judge run's own rubric (engine.validity.request), and the desktop finds it among the
versions the judge panel saves beside the workspace."""

from __future__ import annotations

import json
import logging

from engine.errors import UserError
from engine.judging.rubric import default_rubric_path, rubric_from_dict
from engine.llm.runs.run import run_card
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)


def saved_rubrics(ws: Workspace, judge_run_ids: list[int]) -> dict[int, dict]:
    """The rubric each judge run was judged with, found by its content hash among the versions
    saved in the ``rubrics`` folder beside the workspace (the judge panel saves them there);
    runs judged with the bundled rubric, or with one not saved, are left out. A suite must
    send the judge run's own rubric (engine.validity.request)."""
    wanted = {}
    for run_id in judge_run_ids:
        sha = (run_card(ws, run_id).get("rubric") or {}).get("sha256")
        if sha:
            wanted[run_id] = sha
    bundled = rubric_from_dict(json.loads(default_rubric_path().read_text(encoding="utf-8")))
    wanted = {run: sha for run, sha in wanted.items() if sha != bundled.content_hash}
    folder = ws.path.with_name("rubrics")
    if not wanted or not folder.is_dir():
        return {}
    found: dict[str, dict] = {}
    for path in sorted(folder.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            found.setdefault(rubric_from_dict(data).content_hash, data)
        except (OSError, ValueError, UserError) as exc:  # not a rubric: not a candidate
            log.info("%s is not a rubric: %s", path, exc)
    return {run: found[sha] for run, sha in wanted.items() if sha in found}
