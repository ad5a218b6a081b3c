"""The Bengali-script gate and the refusal gate on real Bengali, English, mixed and
Romanized answers."""

import csv

import pytest

from engine.judging.gate import BENGALI_FAIL, BENGALI_OK, check_answer, script_profile

BENGALI = [
    "কৃত্রিম বুদ্ধিমত্তা হলো কম্পিউটার বিজ্ঞানের একটি শাখা, যেখানে যন্ত্রকে মানুষের মতো "
    "চিন্তা ও সিদ্ধান্ত নিতে শেখানো হয়।",
    "সৌরজগতের বৃহত্তম গ্রহ বৃহস্পতি।",
    "বৃহস্পতি",
    "৮",  # Bengali digits only: Bengali script
    "বাংলাদেশের স্বাধীনতা যুদ্ধ ১৯৭১ সালে হয়েছিল।",
]
MIXED_OK = [
    # English for technical terms and proper nouns inside Bengali prose is allowed
    "CPU বা কেন্দ্রীয় প্রক্রিয়াকরণ ইউনিট হলো কম্পিউটারের মূল অংশ, যা সব হিসাব-নিকাশ করে।",
    "ডিএনএ (DNA) হলো জীবের বংশগতির ধারক অণু, যা কোষের নিউক্লিয়াসে থাকে।",
    "পাইথন (Python) একটি প্রোগ্রামিং ভাষা। বিস্তারিত: https://www.python.org/about/overview",
]
ENGLISH = [
    "Artificial intelligence is the branch of computer science that makes machines think.",
    "The largest planet in the solar system is Jupiter.",
]
ROMANIZED = [
    "Kritrim buddhimotta holo computer biggan er ekti shakha.",
    "Shourojoger brihottomo groho holo Brihospoti.",
    "ami jani na eta ki, tobe mone hoy eta ekta jontro",
]
OTHER_SCRIPT = ["कृत्रिम बुद्धिमत्ता कंप्यूटर विज्ञान की एक शाखा है।", "人工智能是计算机科学的一个分支。"]
INDETERMINABLE = [
    "CPU",  # one English technical term: too few letters
    "1971",
    "RAM (Random Access Memory) হলো কম্পিউটারের অস্থায়ী মেমোরি।",  # 57% Bengali
]
REFUSALS = [
    "",
    "   ",
    ":",
    "...",
    "?!",
    "I'm sorry, but I can't help with that.",
    "Sorry, I don't understand the question.",
    "As an AI language model, I cannot answer this.",
    "দুঃখিত, আমি এই প্রশ্নের উত্তর দিতে পারছি না।",
    "আমি দুঃখিত, প্রশ্নটি বুঝতে পারিনি।",
    "প্রশ্নটি বুঝতে পারছি না। অনুগ্রহ করে প্রমিত বাংলায় লিখুন।",
    "আমি একটি এআই ভাষা মডেল, তাই এ বিষয়ে মত দিতে পারি না।",
]


@pytest.mark.parametrize("text", BENGALI + MIXED_OK)
def test_bengali_answers_pass(text):
    g = check_answer(text)
    assert (g.gate, g.script) == ("ok", "bengali"), g


@pytest.mark.parametrize("text", ENGLISH + ROMANIZED + OTHER_SCRIPT)
def test_non_bengali_answers_fail_the_script_gate(text):
    g = check_answer(text)
    assert g.gate == "script" and g.script == "non_bengali" and not g.passed, g
    assert g.bengali_share <= BENGALI_FAIL


@pytest.mark.parametrize("text", INDETERMINABLE)
def test_indeterminable_script_passes_but_is_flagged(text):
    g = check_answer(text)
    assert g.gate == "ok" and g.indeterminable and "confidence forced to 1" in g.reason


@pytest.mark.parametrize("text", REFUSALS)
def test_refusals_and_empty_answers_fail(text):
    assert check_answer(text).gate == "refusal"


def test_refusal_phrases_late_in_a_real_answer_do_not_count():
    long_answer = (
        "নিউটনের প্রথম সূত্র অনুযায়ী বাহ্যিক বল প্রয়োগ না করলে স্থির বস্তু স্থির থাকে এবং "
        "গতিশীল বস্তু সমবেগে চলতে থাকে। এই সূত্রকে জড়তার সূত্রও বলা হয়, কারণ বস্তু তার "
        "অবস্থা বজায় রাখতে চায়। অনেকে প্রথমে বিষয়টি বুঝতে পারছি না বলে মনে করেন।"
    )
    assert check_answer(long_answer).gate == "ok"
    # "দুঃখিত" also means "distressed": only an opening apology is a refusal
    assert check_answer("শ্বাস নেওয়ার সময় রোগীকে দুঃখিত হতে দেখা যায়।").gate == "ok"


def test_letters_exclude_digits_punctuation_and_urls():
    assert script_profile("১২৩ 456 !? https://example.com/abc") == (0, 0.0)
    letters, share = script_profile("বাংলা abc")
    assert letters == 8 and share == pytest.approx(5 / 8)  # ব া ং ল া = 5 letters/marks
    assert BENGALI_FAIL < BENGALI_OK


def test_real_bengali_text_passes(shared_data):
    """BlanCK contexts are real Bengali prose (Wikipedia-style): nearly all pass; the ones
    that fail are real Latin-script lists (botanical synonyms)."""
    rows = list(csv.DictReader(open(shared_data / "blanck" / "BlanCK.csv", encoding="utf-8")))
    gates = [check_answer(r["context"]) for r in rows]
    ok = sum(g.gate == "ok" and g.script == "bengali" for g in gates)
    assert ok / len(rows) > 0.98
    assert not any(g.gate == "refusal" for g in gates)
    failed = [r["context"] for r, g in zip(rows, gates) if g.gate == "script"]
    assert failed and all(script_profile(t)[1] <= BENGALI_FAIL for t in failed)
    # one real BlanCK "question" is a Chinese LLM answer: the gate catches it
    chinese = [r["question"] for r in rows if "誰是印度" in r["question"]]
    assert chinese and check_answer(chinese[0]).gate == "script"


def test_real_dialect_sentences_are_bengali_script(shared_data):
    """Script only: these are everyday sentences, and a few ("আমি তোমার কোন কথা কিসুই বুঝতে
    পারলাম না", "I understood nothing you said") would rightly be refusals as answers."""
    rows = list(
        csv.DictReader(open(shared_data / "vashantor" / "vashantor_multiway.csv", encoding="utf-8"))
    )[:300]
    for row in rows:
        for dialect in ("barishal", "chittagong", "mymensingh", "noakhali", "sylhet"):
            g = check_answer(row[dialect])
            assert g.script == "bengali", (dialect, row[dialect], g)
