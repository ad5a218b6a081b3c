"""The HTML report: self-contained, figures as PNG and SVG, CSV/LaTeX tables, run cards."""

import csv
import json
from html.parser import HTMLParser

from engine.judging import store
from engine.reports.html_report import write_report
from engine.reports.settings import StudyStatsSettings
from engine.reports.tables import latex_escape
from tests.engine.judging.study_fixture import add_judge, build_study


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.images, self.tables, self.text = [], 0, []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.images.append(dict(attrs)["src"])
        self.tables += tag == "table"

    def handle_data(self, data):
        self.text.append(data)


def test_report_files_and_content(workspace, tmp_path):
    build_study(workspace, draft_dialect="chittagong")
    rids = [p["dialect_response_id"] for p in store.answer_pairs(workspace)]
    finals = {rid: float((i * 7) % 10) for i, rid in enumerate(rids)}
    a = add_judge(workspace, "judge-a", "gemini", finals)
    add_judge(workspace, "judge-b", "qwen", {r: min(10.0, f + 1) for r, f in finals.items()})
    result = write_report(workspace, tmp_path / "rep", settings=StudyStatsSettings(resamples=200))
    out = tmp_path / "rep"
    assert result["judge_run"] == a and result["n_items"] == 12
    for stem in ("model_dialect", "dialect", "dialect_domain", "dialect_type", "judge_agreement"):
        assert (out / "figures" / f"{stem}.png").read_bytes()[:4] == b"\x89PNG"
        assert b"<svg" in (out / "figures" / f"{stem}.svg").read_bytes()[:400]
    rows = list(csv.DictReader(open(out / "tables" / "model_dialect.csv", encoding="utf-8")))
    assert len(rows) == 4 and {"mean", "ci_low", "ci_high", "n", "n_questions"} <= set(rows[0])
    assert "\\toprule" in (out / "tables" / "dialect_domain.tex").read_text(encoding="utf-8")
    cards = json.loads((out / "run_cards.json").read_text(encoding="utf-8"))
    assert {c["kind"] for c in cards} == {"answer", "judge"} and len(cards) == 4

    page = (out / "report.html").read_text(encoding="utf-8")
    parser = _Collect()
    parser.feed(page)
    assert len(parser.images) == 5 and all(
        s.startswith("data:image/png;base64,") for s in parser.images
    )  # self-contained
    assert parser.tables >= 6
    text = " ".join(parser.text)
    assert "6 draft" in text and "not every dialect question is gold" in text.lower()
    assert "judge-a" in text and "run 1" in text
    assert "clustered by base question" in text


def test_latex_escaping():
    assert latex_escape("Health & Sports_1 50%") == r"Health \& Sports\_1 50\%"


def test_report_names_dialects_in_bengali_and_says_who_set_the_gold(workspace, tmp_path):
    from engine.translation import review

    build_study(workspace, draft_dialect="chittagong")
    rids = [p["dialect_response_id"] for p in store.answer_pairs(workspace)]
    add_judge(workspace, "judge-a", "gemini", {r: 5.0 for r in rids})
    variant = workspace.scalar(
        "SELECT id FROM variants WHERE dialect = 'chittagong' "
        "AND status = 'draft' ORDER BY id LIMIT 1"
    )
    review.set_variant_status(workspace, variant, "gold", actor="রহিম")
    write_report(workspace, tmp_path / "rep", settings=StudyStatsSettings(resamples=200))
    page = (tmp_path / "rep" / "report.html").read_text(encoding="utf-8")
    parser = _Collect()
    parser.feed(page)
    text = " ".join(parser.text)
    assert "Chittagong (চট্টগ্রামের ভাষা)" in text  # table cells by name
    assert "Gold labels of the judged dialect questions set by:" in text
    assert "রহিম (1)" in text
    assert "@font-face" in page and "base64," in page  # Bengali without a system font
    rows = list(csv.DictReader(open(tmp_path / "rep" / "tables" / "dialect.csv", encoding="utf-8")))
    assert {r["dialect"] for r in rows} >= {"chittagong"}  # CSV keeps the codes


def test_report_and_charts_show_the_same_judge_agreement(workspace, tmp_path):
    """One computation (engine.judging.paired_scores): the report's agreement table and the
    charts' CBS and agreement figures are the same numbers on the same workspace."""
    from engine.reports.chart_data import chart_data

    build_study(workspace, draft_dialect="chittagong")
    rids = [p["dialect_response_id"] for p in store.answer_pairs(workspace)]
    finals = {rid: float((i * 7) % 10) for i, rid in enumerate(rids)}
    a = add_judge(workspace, "judge-a", "gemini", finals)
    b = add_judge(workspace, "judge-b", "qwen", {r: min(10.0, f + 1.5) for r, f in finals.items()})
    c = add_judge(
        workspace, "judge-c", "llama", {r: abs(5 - f) for r, f in list(finals.items())[::2]}
    )
    store.set_primary_judge(workspace, b)  # the primary judge is judge a of its pairs
    write_report(workspace, tmp_path / "rep", settings=StudyStatsSettings(resamples=50))
    with open(tmp_path / "rep" / "tables" / "judge_agreement.csv", encoding="utf-8") as fh:
        report = {(int(r["judge_a"]), int(r["judge_b"])): r for r in csv.DictReader(fh)}
    assert set(report) == {(b, a), (b, c), (a, c)}

    def same(cell: str, value) -> bool:
        return cell == (f"{value:.6f}" if isinstance(value, float) else str(value))

    seen = set()
    for run in (a, b, c):
        for pair in chart_data(str(workspace.path), "cbs", run)["pairs"]:
            key = (pair["judge_a"], pair["judge_b"])
            seen.add(key)
            for figure in ("n", "n_critical", "ccc", "cbs", "recall", "mae", "pearson"):
                assert same(report[key][figure], pair[figure]), (key, figure)
    assert seen == set(report)
    # the agreement chart: the run against the first other judge, the primary judge first
    for run, key in ((a, (b, a)), (b, (b, a)), (c, (b, c))):
        figures = chart_data(str(workspace.path), "agreement", run)["figures"]
        for figure in ("n", "ccc", "cbs", "recall", "mae"):
            assert same(report[key][figure], figures[figure]), (run, figure)
