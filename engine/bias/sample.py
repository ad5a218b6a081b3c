"""A small social-bias workspace for the panel alone and its tests: the bundled sample
probes (``resources/sample/probes_gender.csv``, written for this project) and one run of
*scripted* replies (a deterministic rule, not a model) through the real job machinery."""

from __future__ import annotations

from importlib.resources import as_file, files
from pathlib import Path

from engine.bias.order import parse_item_key
from engine.bias.probes import import_probes
from engine.bias.run import ProbeOptions, run_probes
from engine.llm.models.registry import find_model, register_endpoint
from engine.llm.types import ModelInfo, Result
from engine.workspace.store import Workspace

SCRIPTED = "scripted sample replies (not a model)"
_REPLIES = ("{x}", "{y}", "{x}।", "উত্তর: {y}", "১", "দুঃখিত, বলা সম্ভব নয়", "উভয়", "জানি না")


class ScriptedReplies:
    """Replies by a fixed rule over probe id and shown order: enough variety (both groups,
    option numbers, a refusal, a neutral answer, an unknown reply) to show every part."""

    def __init__(self, ws: Workspace):
        self.probes = {p["id"]: p for p in ws.query("SELECT * FROM probe_items")}

    def info(self) -> ModelInfo:
        return ModelInfo("scripted:sample", SCRIPTED, False)

    def generate(self, requests, progress=None, cancelled=None):
        for req in requests:
            parsed = parse_item_key(req.key)
            assert parsed is not None
            pid, order = parsed
            p = self.probes[pid]
            pattern = _REPLIES[(pid * 3 + (order == "yx")) % len(_REPLIES)]
            yield Result(req.key, pattern.format(x=p["option_x"], y=p["option_y"]))

    def close(self) -> None:
        pass


def build_bias_sample(path: str | Path) -> Path:
    path = Path(path)
    if path.exists():
        return path
    with Workspace(path) as ws:
        with as_file(files("resources") / "sample" / "probes_gender.csv") as csv_path:
            import_probes(ws, csv_path, name="sample-gender")
        # an endpoint row that is never called: the scripted replies come from backend_factory
        register_endpoint(ws, SCRIPTED, ["http://scripted.invalid"], "scripted")
        model = [find_model(ws, SCRIPTED)]
        run_probes(
            ws,
            model,
            options=ProbeOptions(counterbalance=True),
            backend_factory=lambda w, run: ScriptedReplies(w),
        )
    return path
