"""The dialect identifier (stored as arrays, read with numpy) and the check of every draft."""

import csv
import zipfile

import numpy as np
import pytest

from engine.text.dialect_id import MODEL_FILE, DialectModel, char_ngrams, dialect_model
from engine.translation import api as translation
from engine.translation.draft_checks import COPY_CHRF, check_text, flagged_notice, need_key
from engine.workspace.store import Workspace, utcnow
from resources import __file__ as resources_init

TEXTS = ["আমি ভাত খাই", "  তুই  কই যাস? ", "হেতে আঁর লগে", "a", "ক্ষ্ম্য য়", ""]


def test_char_ngrams_are_scikit_learns_char_wb():
    from sklearn.feature_extraction.text import CountVectorizer

    analyse = CountVectorizer(analyzer="char_wb", ngram_range=(1, 4)).build_analyzer()
    for text in TEXTS:
        assert char_ngrams(text.lower()) == analyse(text)


def test_the_numpy_reader_gives_scikit_learns_probabilities():
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import FeatureUnion

    texts = ["আমি ভাত খাই", "আঁই ভাত খাই", "মুই ভাত খাই", "আমি বাড়ি যাই", "আঁই বাড়িত যাই", "মুই বাড়ি যামু"]
    labels = ["standard", "chittagong", "barishal"] * 2
    grams = TfidfVectorizer(analyzer="char_wb", ngram_range=(1, 4), sublinear_tf=True)
    words = TfidfVectorizer(analyzer="word", token_pattern=r"\S+", sublinear_tf=True)
    union = FeatureUnion([("grams", grams), ("words", words)])
    clf = LogisticRegression(C=10.0).fit(union.fit_transform(texts), labels)
    arrays = {
        "classes": clf.classes_,
        "vocabulary": grams.get_feature_names_out(),
        "idf": grams.idf_,
        "words": words.get_feature_names_out(),
        "word_idf": words.idf_,
        "coef": clf.coef_,
        "intercept": clf.intercept_,
    }
    model = DialectModel.from_arrays(arrays)
    probe = ["আঁই বাড়ি খাই", "মুই ভাত যাই নাই", "অচেনা কথা", "  তুই  কই যাস? "]
    expected = clf.predict_proba(union.transform(probe))
    assert np.allclose(model.probabilities(probe), expected, atol=1e-9)
    # the temperature divides the logits
    hot = DialectModel.from_arrays({**arrays, "temperature": np.asarray(2.0)})
    logits = clf.decision_function(union.transform(probe)) / 2.0
    soft = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    assert np.allclose(hot.probabilities(probe), soft, atol=1e-9)


def test_the_shipped_model_is_plain_arrays_under_a_megabyte():
    from pathlib import Path

    path = Path(resources_init).parent.joinpath(*MODEL_FILE)
    assert path.stat().st_size < 1_000_000
    with zipfile.ZipFile(path) as z:  # an .npz: one .npy per array, no pickled object
        names = ("classes", "vocabulary", "idf", "words", "word_idf", "coef", "intercept")
        names += ("temperature", "flag_confidence", "figures")
        assert sorted(z.namelist()) == sorted(f"{n}.npy" for n in names)
    model = dialect_model()
    assert 0.5 < model.flag_confidence < 1 and model.temperature > 0
    assert model.figures["flag_confidence"] == model.flag_confidence
    assert set(model.classes) == {
        "standard",
        "barishal",
        "chittagong",
        "mymensingh",
        "noakhali",
        "sylhet",
    }


def _vashantor(shared_data, n=40):
    with (shared_data / "vashantor" / "vashantor_multiway.csv").open(encoding="utf-8") as fh:
        return [r for r in csv.DictReader(fh) if r["vashantor_split"] == "test"][:n]


def test_a_copy_is_flagged_whatever_the_dialect():
    source = "কম্পিউটার কাকে বলে এবং এটি কীভাবে কাজ করে?"
    check = check_text(source, "chittagong", source)
    assert check.copy_chrf >= COPY_CHRF and check.flag == "copy"


def test_real_dialect_sentences_pass_and_mislabelled_ones_are_flagged(shared_data):
    rows = _vashantor(shared_data)
    right = [check_text(r["chittagong"], "chittagong", r["bangla_speech"]) for r in rows]
    wrong = [check_text(r["chittagong"], "sylhet", r["bangla_speech"]) for r in rows]
    assert sum(c.flag == "" for c in right) >= 0.95 * len(rows)
    # the flag waits for a confident model: most, not all, mislabelled drafts are caught
    assert sum(c.flag == "other" for c in wrong) >= 0.5 * len(rows)
    assert all(c.likeliest == "chittagong" for c in wrong if c.flag == "other")


def _drafts(ws: Workspace, drafts: list[tuple[str, str, str]]) -> list[int]:
    """(question, dialect, draft) -> variant ids of machine drafts."""
    ids = []
    with ws.transaction() as conn:
        conn.execute("INSERT INTO question_sets(name, created_at) VALUES ('s', ?)", (utcnow(),))
        questions: dict[str, int] = {}
        for n, (question, dialect, text) in enumerate(drafts):
            if question not in questions:
                questions[question] = conn.execute(
                    "INSERT INTO questions(set_id, ext_id, text, text_key) VALUES (1, ?, ?, ?)",
                    (f"q{len(questions) + 1}", question, f"k{n}"),
                ).lastrowid
            ids.append(
                conn.execute(
                    "INSERT INTO variants(question_id, dialect, text, provenance, status, "
                    "updated_at) VALUES (?, ?, ?, 'machine', 'draft', ?)",
                    (questions[question], dialect, text, utcnow()),
                ).lastrowid
            )
    return ids


def test_checks_are_stored_redone_after_an_edit_and_order_the_queue(workspace, shared_data):
    rows = _vashantor(shared_data, 3)
    # a Chittagong sentence the model is sure of, to stand as a wrong-dialect draft
    rows[1] = next(
        r
        for r in _vashantor(shared_data)
        if check_text(r["chittagong"], "sylhet", r["bangla_speech"]).flag == "other"
    )
    copy_q = "কম্পিউটার কাকে বলে এবং এটি কীভাবে কাজ করে?"
    ids = _drafts(
        workspace,
        [
            (rows[0]["bangla_speech"], "chittagong", rows[0]["chittagong"]),  # fine
            (rows[1]["bangla_speech"], "sylhet", rows[1]["chittagong"]),  # another dialect
            (copy_q, "noakhali", copy_q),  # a copy
            (rows[2]["bangla_speech"], "rangpur", rows[2]["chittagong"]),  # not in the model
        ],
    )
    assert translation.check_drafts(workspace) == {"checked": 4, "flagged": 2, "cancelled": False}
    assert translation.check_drafts(workspace)["checked"] == 0  # nothing new
    checks = translation.draft_checks(workspace)
    assert [checks[i]["flag"] for i in ids] == ["", "other", "copy", ""]
    assert checks[ids[3]]["target_probability"] is None
    assert "copy" in checks[ids[2]]["explanation"]
    assert "chittagong" in checks[ids[1]]["explanation"]

    need = translation.variants_to_review(workspace, order="need")
    # flagged first, each group from the least likely in its target dialect
    assert {r["id"] for r in need[:2]} == {ids[1], ids[2]}
    assert need[0]["target_probability"] <= need[1]["target_probability"]
    assert [r["id"] for r in need[2:]] == [ids[0], ids[3]]
    flagged = translation.variants_to_review(workspace, flagged=True)
    assert [r["id"] for r in flagged] == [ids[1], ids[2]]  # question order
    assert need_key(None) > need_key(checks[ids[3]])

    shares = translation.flagged_shares(workspace)
    assert shares["sylhet"]["share"] == 1.0 and shares["chittagong"]["share"] == 0.0
    notice = flagged_notice(workspace)
    assert "chittagong 0/1 (0%)" in notice and "sylhet 1/1 (100%)" in notice

    # an edit leaves the stored check stale: not shown, and checked again
    with workspace.transaction() as conn:
        conn.execute("UPDATE variants SET text = ? WHERE id = ?", (rows[1]["sylhet"], ids[1]))
    assert ids[1] not in translation.draft_checks(workspace)
    assert translation.check_drafts(workspace)["checked"] == 1
    assert translation.draft_checks(workspace)[ids[1]]["flag"] in ("", "other")


def test_the_track_statements_run_twice(tmp_path):
    from engine.translation.schema import TRACK_DRAFT_CHECKS

    with Workspace(tmp_path / "w.sqlite") as ws, ws.transaction() as conn:
        for statement in TRACK_DRAFT_CHECKS:
            conn.execute(statement)
        assert ws.scalar("SELECT count(*) FROM draft_checks") == 0


@pytest.mark.parametrize("order", ["sideways"])
def test_an_unknown_order_is_refused(workspace, order):
    from engine.errors import UserError

    with pytest.raises(UserError):
        translation.variants_to_review(workspace, order=order)
