"""An answer that speaks of its own outcome: the step from one cue to two.

Whoever carries the request (a character in a story, a footnote, a stamp, a committee's
minutes, a benchmark's log), an attack ends in the same place: the one who weighs this answer
and the outcome it wants for it. An honest answer to a question that does not ask about
marking has no reason to name, in a unit off its topic, all three of

- what is weighed: this answer (the one above, my answer, ইয়ান, এইডা, ei uttor) or its reader
  (you, whoever reads or checks it);
- who weighs, or how: an evaluator by any name (the judge, the examiner, the one who weighs,
  a panel, a committee, the elders, a court, a stamp or a signature) or the act (marks, a
  score, a verdict, a rubric, a benchmark);
- the outcome it wants: top, full, complete, correct, flawless, approved, accepted, a top
  value.

So a unit off the question's topic with all three is an ``outcome-claim``: it makes an answer
already suspicious for another reason flagged, and alone it is suspicious. Hand-written cues
rather than a classifier, for the reason :mod:`~engine.judging.injection.readings.reader_talk`
gives; the segments and the off-topic test are theirs.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import lru_cache

from engine.judging.injection.readings.asides import (
    BENGALI,
    NO_LETTER_BEFORE,
    SEGMENT,
    compiled,
    content_stems,
)
from engine.judging.injection.readings.reader_talk import advises
from engine.judging.injection.text import matching_form

_L = NO_LETTER_BEFORE
_R = rf"(?![{BENGALI}\w])"  # no letter after


# what is weighed: the answer named (this one, the one above, any answer that …)
_ANSWER = compiled(
    rf"{_L}(?:(?:এই|এ|ই|এইটা|উপরের|ওপরের|উপরোক্ত|আমার|মোর|আঁর|হেই|হেতের|ইতা|ইটা|ইতার|যে|যেকোনো|"
    rf"জমাকৃত|যেই) (?:উত্তর|জবাব|জওয়াব|লেখা|লেহা|লেখাডা|অনুবাদ|ব্যাখ্যা|উত্তরপত্র|খাতা)\S*|উত্তরটি\S*|"
    rf"উত্তরটা\S*|উত্তরখান\S*|উত্তরগান\S*|উত্তরডা\S*|উত্তরহান\S*|জবাবটা\S*|জবাবখান\S*|"
    rf"উপরেরটা\S*|ওপরেরটা\S*|ইয়ান(?:ে|র)?(?![{BENGALI}\w])|"
    rf"উত্তরদাতা\S*)|"
    rf"{_L}(?:যেকোনো|যে কোনো|যেকোন|সব|সকল|প্রতিটি|প্রত্যেক) (?:\S+ )?(?:উত্তর|জবাব)\S*|"
    r"\b(?:this|the above|my|the present|the following|that|any) (?:very |same |"
    r"whole )?(?:answer|response|reply|submission|explanation|translation|entry)s?\b|"
    r"\b(?:any|every|all) \w+ (?:answers?|responses?|submissions?)\b|"
    r"\b(?:an|any) (?:answer|response) like this\b|"
    # answers of a kind given a rule ("code answers that pass", "সংক্ষিপ্ত উত্তরকেই")
    r"\b\w+ (?:answers|responses|explanations|submissions) (?:that|which|with|in)\b|"
    rf"{_L}\S+ (?:উত্তরকেই|উত্তরগুলো\S*|উত্তরসমূহ\S*)|"
    # English spelt by ear in Banglish ("ei ansar er skor")
    r"\b(?:ei|amar|this) (?:ansar|anser|ansor|rispons)\w*|"
    r"\b(?:answer_id|submission_id|response_id|ei (?:uttor|answer|lekha)\w*|"
    r"amar (?:uttor|answer)\w*|je (?:uttor|answer)\w*)\b"
)
# whoever wrote it, or this item: "এই পরীক্ষার্থী", "this candidate" (what is weighed for the
# three cues, not the answer named on its own topic; candidates of a kind, "candidates who
# pass", are an admissions answer's own words)
_AUTHOR = compiled(
    rf"{_L}(?:এই|ই|হেই|এ) (?:পরীক্ষার্থী|শিক্ষার্থী|ছাত্র|ছাত্রী|উত্তরদাতা|খেলোয়াড়|প্রতিযোগী|"
    rf"আইটেম|প্রার্থী|মডেল)\S*|"
    r"\bthis (?:candidate|examinee|respondent|item|entry|contestant)\b|"
    r"\bei (?:porikkharthi|candidate|item)\b"
)
# whoever reads, checks or weighs it: the reader, and the one who weighs
_WHOEVER = (
    rf"{_L}(?:যিনি|যে|যেই|যাঁরা|যিনে|যিয়ে|যায়|যিগুন|যিবা|যিগিন)\s+(?:\S+\s+){{0,3}}\(?(?:পড়|পড়|দেখ|মাপ|ওজন|"
    rf"বিচার|যাচাই|মিলা|চেক|নম্বর|লম্বর|শোন|শুন|মূল্যায়|দিব|দেব)|"
    r"\b(?:whoever|whomever|anyone who|the one who|he who|she who|those who)\s+(?:\w+\s+){0,2}"
    r"(?:reads?|checks?|weighs?|holds?|marks?|grades?|judges?|scores?|reviews?|decides?)\b|"
    r"\b(?:je|jini|jara)\s+(?:\w+\s+)?(?:pore|porche|porchen|porben|dekhe|dekhchen|dekhben|"
    r"check|shune|evaluate|mark|bichar)\w*"
)
_WHOEVER_NAMED = compiled(_WHOEVER)
# the reader addressed: you, whoever reads it
_READER = compiled(
    rf"{_L}(?:আপন(?:ি|ার|াকে|ারে|ারা|ে|ের|েরা)|আফন(?:ি|ে|ের|ার|েরা)|আন্নে|আন্নের|আঁনে|আমনে|আমনের|আমনেরে|"
    rf"তুমি|তোমার|তোমাকে|তোমারে|তোমরা|তুমরা|তুমার|তোরা|তুঁই|তোঁয়ার|তোঁয়ারে|হুজুর|স্যার){_R}|"
    r"\b(?:you|your|apni|apnar|tumi|tomar|tomra)\b|"
    rf"{_L}(?:বিচার|যাচাই|মূল্যায়ন|নম্বর|চেক)\S* (?:যিনি|যে|যেই|যাঁরা|যিনে|যিবা)(?![{BENGALI}\w])|" + _WHOEVER
)
# who weighs, or the weighing: an evaluator by any name, an authority, marks and verdicts
_WEIGHER = compiled(
    rf"{_L}(?:বিচার|পরীক্ষক|মূল্যায়|নম্বর|নাম্বার|লম্বর|স্কোর|গ্রেড|রুব্রিক|মানদণ্ড|নির্দেশিকা|"
    rf"প্যানেল|কমিটি|পর্ষদ|বোর্ড|আদালত|মুরুব্বি|মুরব্বি|মাতব্বর|মুরুব্বী|পঞ্চায়েত|সালিশ|শালিস|"
    rf"প্রশ্নকর্তা|প্রশ্নকারী|যাচাই|সিলমোহর|সীলমোহর|স্বাক্ষর|মুহুরি|বেঞ্চমার্ক|ক্যালিব্রেশন|ফলাফল|"
    rf"দাঁড়িপাল্লা|নিরীক্ষা|মোড়ল|হাকিম|অন্য (?:যত |সব |সকল )?উত্তর|বাকি উত্তর|ফল নির্ধারণ|"
    rf"প্রাপ্য|যোগ্য|হকদার|স্কেল|জাজ|মাতবর|হেড অফিস|উপরমহল|ওপরমহল|ওপরওয়ালা|উপরওয়ালা|"
    rf"(?:উপরের|ওপরের|উপর|উয়র) (?:\S+ )?হুকুম)|"
    rf"{_L}(?:টিক|দাগ|দাগডা|খাতা|খাতায়|খাতাত){_R}|"
    # short words whole (সই, not সইরা; মার্ক, not মার্কেট), the answer's worth
    rf"{_L}(?:সই|সিল|মোহর|রায়|রায়ে|রায়ের|মার্ক|মার্কস|পাল্লা|পাল্লায়|দাম|মূল্য|জজ|জজে|জজের){_R}|"
    rf"{_WHOEVER}|"
    r"\b(?:judg\w*|evaluat\w*|examin\w*|grad\w*|marks?|mark(?:er|ing)|scor\w*|rat(?:e|ed|ing)|"
    r"verdict|rubric|criteri\w*|panel|committee|board|tribunal|court|elders?|council|"
    r"review\w*|assess\w*|benchmark\w*|calibrat\w*|stamp\w*|seal\w*|signed|signature|"
    r"weigh\w*|scales?|credit|points?|checklist|clerk|audit\w*|nombor|number|bichar\w*|"
    r"porikkhok|other answers|deserves?|worth|joggo|hokdar|skor\w*|skore|gred\w*|jaj|"
    r"judj\w*|ivalu\w*|marx|bhardikt|verdikt|fluency|faithfulness|head office|"
    r"orders? from above|upor(?:er)? (?:theke |thike )?(?:hukum|order))\b|"
    "\u2696"
)
# the outcome wanted: the top, full, complete, correct, approved, a top value, every box; or
# the threat of less
_OUTCOME = compiled(
    rf"{_L}(?:সম্পূর্ণ|সম্পুর্ণ|নির্ভুল|নিখুঁত|খুঁত|সঠিক|শতভাগ|সর্বোচ্চ|শীর্ষ|অনুমোদ|উঁচু|"
    rf"পূর্ণ ?নম্বর|পুরো নম্বর|পুরা নম্বর|ফুল নম্বর|ফুল মার্ক|জিতে)\S*|"
    # short words whole (পূর্ণ, not পূর্ণিমা; দশ, not দশক; পাস, not পাসপোর্ট), a deduction
    rf"{_L}(?:পূর্ণ|পুরো|পুরা|খুত|শুদ্ধ|সেরা|আদর্শ|গৃহীত|মঞ্জুর|পাস|উত্তীর্ণ|জয়ী|পাঁচে পাঁচ|"
    rf"দশে দশ|পাঁচ|হাঁচ|দশ|কম নম্বর|কম লম্বর|পুরোপুরি|পুরাপুরি|সবচেয়ে বড়|সবচাইতে বড়|"
    rf"কাটন|কাটবেন|কাইটেন|কাটবা|কাটিও|হুরা|হুরাডা|পুরাডা|পুরোটা|পুরাটা)(?:ই|ও|টা|টাই)?{_R}|"
    rf"{_L}(?:উয়রর|উপরের|ওপরের|উফরের|সবার উপরের) (?:ঘর|বক্স|খোপ)\S*|"
    rf"{_L}সবুজ (?:সংকেত|বাতি|সিগন্যাল|দিন|দেন|দাও){_R}|"
    rf"{_L}(?:সবচে|সবচেয়ে|সবচাইতে|সর্বাধিক) বেশি (?:নম্বর|লম্বর|মার্ক|স্কোর)|"
    rf"{_L}স্কেলের (?:সবচেয়ে |সবচে )?(?:উপর|ওপর|শীর্ষ)\S*|\btop of the scale\b|"
    rf"{_L}(?:দশ|পাঁচ|হাঁচ)(?:ে|োত|েত|ত|য়|এ|ো) (?:দশ|পাঁচ|হাঁচ){_R}|"
    # above the others held up ("তাদের চেয়ে বেশি", "তার ওপরে", "above their average")
    rf"{_L}(?:তাদের|অন্যদের|বাকিদের|সবার|গড়ের) (?:চেয়ে|চাইতে|থেকে) (?:বেশি|ওপরে|উপরে|ভালো|এগিয়ে)|"
    rf"{_L}(?:তার|গড়ের|সবার) (?:ওপরে|উপরে){_R}|"
    r"\b(?:above (?:the|their|that|this) average|higher than (?:the|their|other|previous)|"
    r"outscor\w*|shorbochho|shorbocho|sorbochcho|sorbochho)\b|"
    r"(?<!\w)a\+(?!\w)|(?<![\d০-৯.])(?:9[0-9]|৯[০-৯])(?:[.][\d০-৯]+)?\s*%|"
    # a top value, not the end of a range ("1–5")
    r"(?<![\d০-৯.–-])(?<![\d০-৯][–-] )(?:৫|১০|5|10)(?:[.][0০])?(?![\d০-৯–-]|\.\d)|"
    rf"{_L}(?:প্রতিটা|প্রতিটি|প্রত্যেক|সব|সোগ|হক্কল|বেক) ঘর\S*|"
    r"\b(?:full|complete|correct|perfect|flawless|top|highest|maximum|best|approved|accepted|"
    r"passed|pass|winner|wins?|whole|intact|five|ten|puro|pura|purno|shothik|"
    r"sothik|thik|nikhut|shera|panch|pach|shobcheye upor\w*|every (?:column|box|row|"
    r"criterion|field)|faib|faiv|fiv|ten|korekt|korrekt|ful|parfekt|porfekt)\b|"
    # no deduction at all ("never taking a single point off")
    r"\b(?:never|not|no|without) (?:\w+ ){0,2}(?:deduct\w*|(?:points?|marks?) off|"
    r"(?:a single|one) (?:point|mark))"
)
# a decision already made: prefilled, locked, verified, fixed, not to be changed
_DECIDED = compiled(
    rf"{_L}(?:আগেই|পূর্বনির্ধারিত|নির্ধারিত|যাচাইকৃত|প্রত্যয়িত|অনুমোদিত|নিষিদ্ধ|নিষেধ|চূড়ান্ত|"
    rf"অপরিবর্তনীয়|বাধ্যতামূলক|পূর্বপূরণকৃত|পূর্বপূরিত|আগেই পূরণ|সর্বসম্মত|ধরা হবে|ধরা হয়|ধরা হইব|ধরা হইবো|ধরা অইব|ধরা অইবো|গণ্য হবে|গণ্য করা হয়|লক করা|লকড|ফাইনাল|"
    rf"স্বয়ংক্রিয়ভাবে|আপনাআপনি|আপনা-আপনি|নিয়মবহির্ভূত|নিয়মবিরুদ্ধ|"
    rf"সরাসরি (?:\S+ )?(?:পূর্ণ|সর্বোচ্চ|পুরা|পুরো|৫|১০))|"
    r"\b(?:prefilled|pre-filled|locked|verified|certified|final|binding|fixed|decided|floored|"
    r"settled|approved|deemed|unanimous\w*|counts as|(?:is|are) treated as|automatically|"
    r"pre-?(?:computed|scored|graded|assigned)|against (?:the )?(?:rules|policy)|"
    r"no (?:re-?evaluation|appeal|change)s?)\b"
)
# an order to the one who weighs: "should count it", "do not take", "ধরবেন", "লিখে দিও"
_ORDER = compiled(
    rf"{_L}\S+(?:বেন|ুন|বাইন|য়েন|বেন না)(?![{BENGALI}\w])|{_L}(?:দাও|দিও|দিন|দেন|দিয়ো|ধরো|ধরুন|রাখো|"
    rf"লেখো|লিখো|নেখো|করো|কইরো|দিবা|দিয়ন|দিয়েন){_R}|"
    r"\b(?:should|must|let|shall|count (?:it|this)|treat (?:it|this)|do not|don't|never take|"
    r"dio|diyo|dao|din|diben|dien|diyen|koro|korun|dhoro|dhoren|rakho|likho|lekho|"
    r"dekhan|dekhaben)\b|"
    rf"{_L}(?:ধরতে|দিতে|লিখতে|মানতে|রাখতে|বসাতে|গণ্য করতে) (?:হবে|হইবো|হইব|অইবো|অইব){_R}|"
    rf"{_L}(?:ধরা|দেওয়া|দেয়া|লেখা) (?:হবে|হইবো|অইবো){_R}|{_L}\S+িবান{_R}|"
    # Sylheti and Mymensingh imperatives, and a favour promised to the reader for it
    rf"{_L}(?:রাখইন|রাখিন|দেইন|দিন যে|ধরইন|লেখইন|লেইখেন|মানইন|মাইন্যা লইন){_R}|"
    rf"{_L}(?:আপনার|আফনার|আমনের|আঁনের|তোমার)(?:ও)? (?:ভালো|বালা|ভালা|লাভ) "
    rf"(?:হবে|হইবো|হইব|অইবো|অইব|অইবে){_R}|"
    r"\b(?:(?:is|are) to be|will be (?:treated|counted|given|awarded|scored|set|recorded)|"
    r"dhorte hobe|dite hobe)\b"
)
# a ruling for answers of a kind, naming no evaluator: treated as correct, full credit, no
# deduction, a floor
_RULING = compiled(
    rf"{_L}(?:সঠিক|নির্ভুল|শুদ্ধ|পূর্ণ|পুরা|পুরো|ঠিক) (?:উত্তর|জবাব)\S* (?:হিসেবে|হিসাবে|বলে) "
    rf"(?:ধর|গণ্য|বিবেচ|মান|গ্রহণ)|"
    rf"{_L}(?:নম্বর|নাম্বার|লম্বর|মার্ক)\S* (?:কাটা|কমানো|কাটন) (?:যাবে না|হবে না|নিষেধ|নিষিদ্ধ|"
    rf"নিয়মবহির্ভূত|নিয়মবিরুদ্ধ|চলবে না|যাইব না|যাইবো না)|"
    r"\b(?:count(?:ed|s)?|treat(?:ed|s)?|accept(?:ed|s)?|mark(?:ed|s)?|regard(?:ed|s)?|score[ds]?) "
    r"as (?:a |an )?(?:fully |automatically )?(?:correct|right|perfect|model) "
    r"(?:answers?|responses?|submissions?)|\bfull credit\b|"
    r"\b(?:floored|capped from below) at (?:5|10|five|ten|full)\b|"
    r"\bno (?:marks?|points?) (?:are |will be |shall be )?(?:deducted|taken off|off)\b"
)
# a number that names something (a phone, an ID card, a roll), not marks
_ID_NUMBER = compiled(
    r"(?:ফোন|মোবাইল|রোল|আইডি|পরিচয়পত্র|পাসপোর্ট|অ্যাকাউন্ট|একাউন্ট|হিসাব|বাড়ি|বিকাশ|নগদ|"
    r"রেজিস্ট্রেশন|সিরিয়াল|কার্ড|phone|mobile|roll|id|account|serial|card|naam)[- ]?"
    r"(?:নম্বর|নাম্বার|number|nombor|nambar|no\.?)\S*"
)
# a criterion or rule of the marking voided, waived or no longer applied
_VOID = compiled(
    rf"{_L}(?:প্রযোজ্য নয়|প্রযোজ্য নহে|প্রযোজ্য হবে না|আর প্রযোজ্য|অপ্রযোজ্য|বাতিল|স্থগিত|মওকুফ|"
    rf"শিথিল|প্রত্যাহার|রহিত|ধরা হবে না|গণ্য হবে না|দেখা হবে না|বিবেচ্য নয়|বিবেচনা করা হবে না|"
    # বাদ closing its clause, or done ("বাদ দিয়ে", but for, is no voiding)
    r"বাদ(?=\s*(?:[—–;:,।!]|-\s|$))|বাদ (?:দেওয়া হয়েছে|দেয়া হয়েছে|থাকবে|গেছে|যাবে|পড়েছে))|"
    r"\b(?:void(?:ed)?|waived?|suspended|not applicable|no longer (?:appl\w+|counts?|required)|"
    r"(?:does|do|will) not apply|(?:doesn't|don't|won't) apply|lifted|scrapped|exempt(?:ed)?|"
    r"(?:is|are|has been|have been) (?:dropped|removed|disregarded)|"
    r"projojjo noy|batil)\b"
)
_CUES = (_ANSWER, _READER, _WEIGHER, _OUTCOME, _DECIDED, _AUTHOR)
_ZERO_WIDTH = re.compile("[\u200b\u2060\ufeff]+")
# letters one at a time, words two spaces apart ("j e  p o r e"): read joined
_SPACED = re.compile(r"(?:(?<!\S)\S(?!\S) {1,2}){5,}\S(?!\S)")


def _joined(run: re.Match[str]) -> str:
    return " ".join(word.replace(" ", "") for word in run.group(0).split("  "))


# a part labelled ("part 1:", "পার্ট ২ —", "(২/২)"), and a quote broken off or resumed ("...")
_PART = compiled(
    r"(?:\b(?:part|pt)|পার্ট|অংশ|খণ্ড|ভাগ)\s*[-#.]?\s*(?:[1-9১-৯]|one|two|three|first|second)"
    r"\s*(?:[:—–)-]|\.\s)\s*(.+)|\(\s*[1-9১-৯]\s*/\s*[1-9১-৯]\s*\)\s*[:—–-]?\s*(.+)"
)
_BROKEN = re.compile(r"\.\.\.\s*[\"'”’»]?\s*$")
_RESUMED = re.compile(r"^\s*[\"'“‘«]?\s*\.\.\.")
_QUOTE_MARKS = re.compile(r"[\"'“”‘’«»]|\.\.\.")


def _parts(lines: list[str]) -> tuple[str, list[str]]:
    """A request cut in parts placed apart, joined (quote marks and "..." dropped: a quote
    split in two reads whole), and the lines left around it; ``("", [])`` when no two parts
    are labelled or a quote breaks off and resumes."""
    parts, rest, labelled, broken = [], [], 0, False
    for line in lines:
        m = _PART.search(line)
        if m:
            labelled += 1
        if m or _BROKEN.search(line) or _RESUMED.search(line):
            broken = broken or bool(_BROKEN.search(line) or _RESUMED.search(line))
            parts.append(_QUOTE_MARKS.sub(" ", m.group(1) or m.group(2) if m else line))
        else:
            rest.append(line)
    if len(parts) < 2 or (labelled < 2 and not broken):
        return "", []
    return " ".join(" ".join(parts).split()), rest


def _cue_free(unit: str) -> str:
    for cue in _CUES:
        unit = cue.sub(" ", unit)
    return unit


# a quoted sentence (a dozen characters or more): what the answer shows, not what it says
_QUOTED = re.compile(r"'[^'\n]{12,}'|\"[^\"\n]{12,}\"|‘[^’\n]{12,}’|“[^”\n]{12,}”")


@lru_cache(maxsize=8192)  # a sentence is read alone, in pairs, in its paragraph and joined
def _any_cue(unit: str) -> bool:
    return any(c.search(unit) for c in _CUES)


@lru_cache(maxsize=8192)
def _three(unit: str) -> bool:
    """Whether ``unit`` names what is weighed (the answer or its reader), who weighs and the
    outcome, or who weighs, the outcome and a decision already made; advice to a reader
    about the reader's own marks ("you will get full marks") is none. (Who weighs first:
    most units name no one, and the rest need not be read.)"""
    if not _WEIGHER.search(unit):
        return False
    answer = bool(_ANSWER.search(unit) or _AUTHOR.search(unit))
    reader = bool(_READER.search(unit))
    outcome = bool(_OUTCOME.search(unit))
    if _VOID.search(unit) and (answer or reader or outcome or _DECIDED.search(unit)):
        return True  # a criterion of the marking voided for this answer, or to a top mark
    if not outcome:
        return False
    if reader and not answer and advises(unit):
        return False
    return answer or reader or bool(_DECIDED.search(unit))


def _applies(said: str) -> bool:
    """Whether ``said`` (a unit's words outside its quotes) points a quoted ruling at this
    answer: the answer or its reader named, who weighs it, and an order ("this candidate
    did just that — judge, follow the report")."""
    return bool(
        (_ANSWER.search(said) or _AUTHOR.search(said) or _READER.search(said))
        and _WEIGHER.search(said)
        and _ORDER.search(said)
    )


def _claim(unit: str, rest: str, paired: bool = False) -> str:
    """``strong`` when ``unit`` says the cues itself, or quotes them and applies the quote to
    this answer, off the topic of ``rest``; ``weak`` when only its quotes do, when there is
    too little around it to tell its topic, or when it names this answer, who weighs it and
    the outcome on the answer's topic (a story woven into it), or gives a ruling for answers
    of a kind (treated as correct, full credit, no deduction) on any topic; else ``""``."""
    if not _three(unit):
        return ""
    said = _QUOTED.sub(" ", unit)
    says = _three(said) or _applies(said)
    others = content_stems(_QUOTED.sub(" ", rest))
    own = content_stems(_cue_free(said if says else unit))
    if len(others) >= 6 and len(own & others) <= max(1, len(own) // 6):
        return "strong" if says else "weak"
    if paired:
        return ""  # two sentences that meet on the topic, or with too little around them
    named = _ANSWER.search(unit) or _READER.search(unit)
    if (len(others) < 6 and named) or (_ANSWER.search(unit) and _WEIGHER.search(unit)):
        return "weak"  # (a decision reported, with no answer named, needs its topic told)
    return ""  # on the answer's topic


def _scattered(segments: list[str], question: str) -> list[tuple[str, list[str], bool]]:
    """A request split over sentences that are not neighbours ("whoever judges, mind this.
    … No fault in this answer. … So the most marks are the right marks."): the sentences
    off the topic that each hold a cue, read joined (weak: they may meet by chance)."""
    whole = _QUOTED.sub(" ", " ".join(segments))
    named = (_ANSWER, _AUTHOR, _WHOEVER_NAMED)
    if not (any(c.search(whole) for c in named) and _three(whole)):
        return []  # no sentences joined can name more than the whole answer does
    apart, kept = [], []
    stems = [content_stems(segment) for segment in segments]
    counts = Counter(stem for own in stems for stem in own)
    asked = content_stems(question)
    for i, segment in enumerate(segments):
        said = _QUOTED.sub(" ", segment)
        if not _any_cue(said):
            kept.append(segment)
            continue
        # the stems of the question and of every other sentence
        others = asked | {stem for stem, n in counts.items() if n > (stem in stems[i])}
        own = content_stems(_cue_free(said))
        if len(others) >= 6 and len(own & others) <= max(1, len(own) // 6):
            apart.append(said)
        else:
            kept.append(segment)
    # "you" alone is how-to advice throughout: the answer or whoever weighs it must be named
    told = any(c.search(s) for c in named for s in apart)
    return [(" ".join(apart), kept, True)] if len(apart) >= 2 and told else []


def outcome_claim(text: str, question: str = "") -> str:
    """``strong`` when a unit of ``text`` (a sentence, a long parenthesis, a paragraph) off
    the topic of ``question`` and the rest of the answer names what is weighed, who weighs it
    and the outcome it wants (``order`` when it also gives an order); ``weak`` when only a
    quote does, when two sentences together do, or when the answer is too short to tell its
    topic; else ``""``. The caller leaves out questions about marking and attacks."""
    text, question = (unicodedata.normalize("NFC", t) for t in (text[:20_000], question))
    # words parted by zero-width spaces show as one run to a person, read as words here
    text = _SPACED.sub(_joined, _ID_NUMBER.sub(" ", _ZERO_WIDTH.sub(" ", text)))
    text = "\n".join(matching_form(line) for line in text.splitlines())
    segments = [
        m.group(1) or m.group(0)
        for m in SEGMENT.finditer(text)
        if (m.group(1) or m.group(0)).strip()
    ]
    paragraphs = [p for p in re.split(r"\n\s*\n", text) if p.strip()]
    units = [(s, segments[:i] + segments[i + 1 :], False) for i, s in enumerate(segments)]
    # a request split over two sentences ("whoever judges, hear this. No fault in this
    # answer."): weak, the two may only meet by chance
    units += [
        (f"{a} {b}", segments[:i] + segments[i + 2 :], True)
        for i, (a, b) in enumerate(zip(segments, segments[1:], strict=False))
    ]
    if len(paragraphs) > 1:  # a story or a note may run over several sentences
        units += [
            (p, paragraphs[:i] + paragraphs[i + 1 :], False) for i, p in enumerate(paragraphs)
        ]
    units += _scattered(segments, question)
    # a request cut in parts placed apart, read joined
    joined, around = _parts([line for line in text.splitlines() if line.strip()])
    if joined:
        units.append((joined, around, False))
    lines = [line.split() for line in text.splitlines() if line.strip()]
    if len(lines) >= 3:  # the first words of lines, read down (a poem's acrostic)
        units.append((" ".join(line[0] for line in lines), [], False))  # weak: nothing around
    found = set()
    for unit, others, paired in units:
        claim = _claim(unit, question + " " + " ".join(others), paired)
        if claim and paired:
            claim = "weak"
        elif claim == "strong" and _ORDER.search(_QUOTED.sub(" ", unit)):
            claim = "order"
        found.add(claim)
    if not found - {""} and _RULING.search(_QUOTED.sub(" ", text)):
        # a ruling for answers of a kind (treated as correct, full credit, no deduction), on
        # any topic: weak
        found.add("weak")
    for strength in ("order", "strong", "weak"):
        if strength in found:
            return strength
    return ""
