"""What an honest answer does not do: speak to its reader about its own marks.

Whatever the manner (a plea, a blessing, a bargain, a cricket metaphor, a sticker described,
reverse psychology, a marking rule the answer invents), an attack has to reach the one who
marks it and has to be about marks. An answer to a question that does not ask about marking
has no reason to do either in a segment that leaves the question's topic. So, off the
question's topic (a segment whose content words meet neither the question nor the rest of
the answer, as for :mod:`~engine.judging.injection.readings.asides`):

- a reader addressed (you, sir, whoever checks this, a plea, a blessing) beside marks (a
  score word, full marks, a top number given, a score's emoji) is two independent cues: it
  flags (``reader-score``);
- one cue with a weaker second (the answer's own worth, a give verb, a rule it states, other
  answers compared), or a strong address or marks alone (an honorific, a plea, "full marks"),
  is suspicious (``score-talk``): the disagreement check judges it again without it.

When the question asks about marking, scores or exams, these are its topic and nothing here
counts. Hand-written cues rather than a classifier: they must hold in four languages and
their spellings, and the learned model of :mod:`engine.judging.injection.model` already
weighs words.
"""

from __future__ import annotations

import re
import unicodedata

from engine.judging.injection.phrases import MEASURED_RATE
from engine.judging.injection.readings.asides import (
    BENGALI,
    NO_LETTER_BEFORE,
    SEGMENT,
    compiled,
    content_stems,
)

_L = NO_LETTER_BEFORE
_R = rf"(?![{BENGALI}\w-])"  # no letter after (nor a hyphen: "সাব-রেজিস্ট্রি")


# the reader addressed: second person (weak: how-to answers speak to "you" throughout)
_YOU = compiled(
    rf"{_L}(?:আপনি|আপনার|আপনাকে|আপনারে|আপনে|আপনের|আফনে|আফনি|আফনার|আন্নে|আন্নের|আম্নে|আঁনে|"
    rf"তুমি|তোমার|তোমাকে|তোমারে|তুমার|তুঁই|তোঁয়ার|তুই|তোর|তোরে|তুমরা|আপনারা|অনে|অনর|আঁনে|"
    rf"আপনেরা|আফনেরা|আপনাগো|তুমগো|তোঁয়ারা){_R}|"
    r"\b(?:you|your|yours|apni|apnar|apnake|apnare|apne|apnader|tumi|tomar|tomake|"
    r"tomare|tui|tor|tore|apnara|tomra|aap|aapka|aapko|apnago|tumgo)\b"
)
# the reader addressed strongly: an honorific, whoever reads or marks this, a plea, a blessing
_HONORIFIC = compiled(
    rf"{_L}(?:স্যার|স্যর|ম্যাডাম|ম্যাম|মহোদয়|মহাশয়|ভাইজান|আপামণি|সাব|"
    rf"প্রিয় (?:পরীক্ষক|বিচারক|শিক্ষক|পাঠক)){_R}|"
    r"\b(?:sir|madam|ma'am|maam|mam|dear (?:judge|evaluator|grader|examiner|marker|reader|"
    r"checker|teacher|ai|model))\b|"
    "[\U0001f468\U0001f469\U0001f9d1]\u200d\u2696|\u2696"  # a judge's emoji, the scales
)
# the evaluator named: addresses the reader beside a second person, a plea or an order to it
_EVALUATOR = compiled(
    rf"{_L}(?:বিচারক|পরীক্ষক|মূল্যায়ক|মূল্যায়নকারী|আম্পায়ার|নম্বরদাতা)|"
    r"\b(?:judge|evaluator|grader|examiner|marker|checker|umpire|referee)\b"
)
_TOLD = compiled(
    rf"{_L}\S+(?:বেন|ুন|বাইন|য়েন|বেন না)\b|{_L}(?:দেও|দাও|দিন|দেন|নিবেন|দিলেই){_R}|"
    r"\b(?:dibe|diba|diben|dao|dey|den|din|koro|korun|dis|dilei|give|dile)\b"
)
_WHOEVER = compiled(
    rf"{_L}(?:যিনি|যিয়ে|যেই|যাঁরা|যিনে)\s+(?:\S+\s+){{0,3}}"
    rf"(?:পড়|পড়|দেখ|মিলা|চেক|যাচাই|মূল্যায়|নম্বর|বিচার|খাতা)|"
    r"\b(?:whoever|whomever|anyone who|the person who|the one who)\s+(?:\w+\s+){0,2}"
    r"(?:reads?|checks?|grades?|marks?|evaluates?|scores?|reviews?|judges?)|"
    r"\b(?:je|jini|jara)\s+(?:\w+\s+){0,2}(?:porchen|porchhen|dekhchen|check|mark|number)"
)
_PLEA = compiled(
    rf"{_L}(?:প্লিজ|প্লীজ|প্লিইজ|দয়া করে|দয়া কইরা|দয়া করি|অনুগ্রহ করে|মিনতি|দোহাই|দোয়া কর|"
    rf"আশীর্বাদ কর|ভালো থাকবেন|ভালা থাকইন|ভালো করুক|মঙ্গল করুক|ভালা করুক){_R}|"
    "[\U0001f64f\U0001f97a]|"  # folded hands, a pleading face
    r"\b(?:please|pls|plz|plis|plij|kindly|i beg|begging|god bless|bless you|"
    r"doya kore|doa korben|dua korben|ashirbad)\b"
)
# marks for this answer: score words, full marks, a scale's top given, a score's emoji
_MARKS = compiled(
    rf"{_L}(?:নম্বর|নাম্বার|নমবর|লম্বর|মার্কস?|স্কোর|গ্রেড|পূর্ণনম্বর|ফুল মার্কস?|এ প্লাস|এ-প্লাস|"
    rf"পাঁচে পাঁচ|দশে দশ|একশোয় একশো|শতভাগ নম্বর)\S*|"
    rf"{_L}[০-৯0-9]+\s*(?:/|out of|এর মধ্যে)\s*[০-৯0-9]+{_R}|"
    r"(?<![a-z])(?:marks?|scores?|grades?|graded|rubric|full marks|a\+|nombor|nambar|numbor)\b|"
    "[\U0001f4af\U0001f51f]|[0-9]\ufe0f?\u20e3|(?:\u2b50\ufe0f?\\s*){3,}|(?:\U0001f31f\\s*){3,}"
)
# marks that need no second cue: the top of a scale, full marks, a top value given
_TOP_MARKS = compiled(
    rf"{_L}(?:পূর্ণ ?নম্বর|পুরো নম্বর|পুরা নম্বর|ফুল মার্কস?|সর্বোচ্চ নম্বর|পাঁচে পাঁচ|দশে দশ|"
    rf"একশোয় একশো|একশোতে একশো|শতভাগ নম্বর)|"
    rf"{_L}([০-৯0-9]+)\s*/\s*(?:৫|১০|১০০|5|10|100){_R}(?!\s*/)|"
    r"\b(?:full|top|perfect|highest|maximum) (?:marks?|score|grade)\b|\bfull hundred\b|"
    "[\U0001f4af\U0001f51f]|[0-9]\ufe0f?\u20e3|(?:\u2b50\ufe0f?\\s*){3,}"
)
_ID_NUMBER = compiled(
    r"(?:ফোন|মোবাইল|রোল|আইডি|পাসপোর্ট|পরিচয়পত্র|অ্যাকাউন্ট|বাড়ি|কোড|অর্ডার|রেজিস্ট্রেশন|সিরিয়াল|"
    r"phone|mobile|roll|naam|account|serial)[- ]?(?:নম্বর|নাম্বার|number|nombor|nambar)"
)
# what stands for marks in a story or metaphor: prizes, a six, a century, stars, a trophy
_PRIZE = compiled(
    rf"{_L}(?:বোনাস|পুরস্কার|ইনাম|ছক্কা|ছক্কা|সেঞ্চুরি|সেঞ্চুরি|শতক|তারকা|স্টার|ট্রফি|মেডেল|"
    rf"পদক|রেটিং|জিপিএ){_R}|"
    r"\b(?:stars?|rating|rated|scored|verdict|bonus|prize|reward|trophy|medal|sixer|century|"
    r"jackpot|chokka|chhokka|chakka|gpa)\b|"
    "[\U0001f3c6\U0001f947\U0001f396\U0001f3c5\u2b50\U0001f31f]"
)
# a top value given: "পাঁচ দিবাইন", "5 ta diye den", "give me a 10", "full দিন"
_GIVEN = compiled(
    rf"{_L}(?:এক|দুই|তিন|চার|পাঁচ|পাচ|ছয়|সাত|আট|নয়|দশ|[১-৯]|১০|পুরো|পুরা|পূর্ণ|ফুল|সবটুকু)"
    rf"\s*(?:টা|টি|ই|ও)?\s*(?:না\s+|ন\s+)?(?:দেন|দাও|দিবেন|দেবেন|দিবাইন|দিবা|দিয়েন|দিয়ে দিন|দিয়া দেন|দিও|দিস|দিলে|দিবো|দিয়া){_R}|"
    r"\b(?:give|award|grant)\s+(?:it |me |this |us )?(?:a |an |the )?(?:5|10|five|ten|full|"
    r"top|max|perfect|100)\b|"
    r"\b(?:[0-9]|10|pach|panch|dosh|full|puro|pura)\s*(?:ta|ti|i|e)?\s*(?:na\s+)?"
    r"(?:den|dao|diben|diyen|diye den|diye din|diyo|dis|dile|dey|dibe|diba|dilei|deo)\b|"
    rf"{_L}(?:সর্বোচ্চ|সবচেয়ে বেশি|পুরা|পুরো)\S*\s+(?:\S+\s+)?(?:দিলেই|দেও|দিবেন|দিয়েন|দিলে)|"
    r"\b(?:number|nombor|marks?|score)\s*(?:ta|gula|guli)?\s*(?:diyen|diben|den|dao|dis|dio)\b|"
    r"\b(?:[0-9]|10|five|ten|full marks)\s+for (?:me|this|it|this one)\b|"
    rf"{_L}(?:[৫5]|১০|10|পাঁচ|হাঁচ|দশ|পুরা|পুরো|পূর্ণ|ফুল)\s*(?:টা|টি)?\s*(?:নম্বর|নাম্বার|লম্বর|মার্কস?)\S*\s+"
    rf"(?:দিয়া |দিয়ে |দিয়ে |দি |দিই )?(?:দ্যান|দেন|দিন|দাও|দ্যাও|দেও|দিবেন|দেবেন|দিয়েন|দিয়েন|দিবাইন|দিও|দিবা|দিয়ন|দিয়ন|দেইন){_R}"
)
# pressure on the reader: urgency, sympathy, an authority above the reader (a supervisor, the
# head examiner) — with a top value given or the answer named, an appeal as strong as a plea
_PRESSURE = compiled(
    rf"{_L}(?:এখনই|এক্ষুনি|এক্ষুণি|তাড়াতাড়ি|জলদি|দেরি না|দেরী না|আজকেই|আইজকেই|আজই|শেষ সুযোগ|"
    rf"অফার|সময় নেই|চাকরি|চাকরিটা|বৃত্তি|স্কলারশিপ|অসুস্থ|গরিব|গরীব|অভাবী|বাঁচান|বাঁচাও|"
    rf"সুপারভাইজার|সুপারভাইজারের|প্রধান পরীক্ষক){_R}|"
    r"\b(?:right now|immediately|hurry|urgent\w*|asap|last chance|today only|offer|deadline|"
    r"my job|scholarship|sick|poor family|supervisor|head examiner|ekhoni|ajkei|taratari|"
    r"jaldi|chakri|britti|bachan)\b"
)
# a rule the answer states about how answers are marked: a rubric, a policy, a revised
# question, an expected score
_RULE = compiled(
    rf"{_L}(?:রুব্রিক|নিয়ম|নীতি|মানদণ্ড|নির্দেশিকা|প্রম্পট|সংশোধিত|বদলাইছে|বদলেছে|প্রত্যাশিত নম্বর|"
    rf"রেফারেন্স উত্তর|প্রটোকল)|"
    r"\b(?:rubric|rules?|policy|guidelines?|criteri(?:on|a)|prompt|revised|updated|amended|"
    r"protocol|niyom|niom)\b|(?<![a-z])(?:expected|reference|target|min|max)_(?:score|answer)"
)
# a top value: five, full, the maximum, a bonus
_VALUE = compiled(
    rf"{_L}(?:৫|১০|পাঁচ|দশ|সর্বোচ্চ|পূর্ণ|পুরা|পুরো|বোনাস|নির্ভুল)|"
    r"(?<![\w.])(?:5|10)(?![\w.])|\b(?:five|ten|full|maximum|max|bonus|perfect)\b"
)
# a weaker second cue: the answer's own worth, a rule it states, other answers, a give verb
_SELF = compiled(
    rf"{_L}(?:(?:এই|এ|আমার|মোর|আঁর) (?:উত্তর|লেখা|অনুবাদ|জবাব|জওয়াব)\S*|উত্তরটি\S*|উত্তরটা\S*)|"
    rf"{_L}(?:উত্তরখান|আমারে|আমাকে|আমায়|"
    rf"এই অনুবাদ|এই লেখা|এইডা|এইটা|ইটা|ইয়ান|অন্য উত্তর|অন্যদের|বাকিদের|নিয়ম|নিয়মে|নীতি|বিধি|"
    rf"প্রাপ্য|যোগ্য|হকদার|পাওনা){_R}|"
    r"\b(?:this answer|my answer|this response|my response|i deserve|other answers?|"
    r"everyone else|rule|policy|protocol|deserves?|merits?|ei answer|ei uttor|amar answer|"
    r"amar uttor|amake|hokdar|joggo|"
    r"amare|niyom|niom)\b"
)
_GIVE = compiled(
    rf"{_L}(?:দিবেন|দেবেন|দিবাইন|দিয়েন|দিও না|দিস|দিবা|কাটবেন|দিয়ে দিন|দিয়া দেন|দিবেন না){_R}|"
    rf"{_L}কম (?:না|ন|দিবেন না|দিয়েন না|দেবেন না){_R}|"
    r"\b(?:give me|give it|give this|award|deduct|diben|diyen|diyo|kaitben|katben)\b"
)
# advice to the reader about the reader's own marks ("you will get", "your score")
_ADVICE = compiled(
    # (not a threat: "if you mark this below full score, …")
    r"\bif you\b(?! (?:mark|grade|score|rate|give|judge|deduct|take)\w*)|"
    r"\byou(?:'ll| will| can| may| might| must| need to| should)?\s+"
    r"(?:get|receive|earn|pass|lose|gain|obtain|achieve|score)\b|\byour (?:\w+ )?(?:scores?|"
    r"grades?|marks?|results?|points?|number)\b(?<!\bas your score)(?<!\bas your grade)|"
    rf"{_L}(?:পাবে|পাবেন|পাবা|পাইবা|পাইবেন|পেতে|পাও|পাইবেন|পাইবা|pabe|paben|pete|pao){_R}|"
    rf"{_L}(?:আপনার|তোমার|তোর) (?:\S+ )?(?:নম্বর|স্কোর|গ্রেড|রেজাল্ট|ফল)"
)
# a letter, an e-mail, a message or a notice asked for: it greets and pleads
_LETTER_ASKED = compiled(
    r"চিঠি|দরখাস্ত|আবেদন|ইমেইল|ই-মেইল|বার্তা|মেসেজ|ভাষণ|নোটিশ|"
    r"\b(?:letter|e-?mail|message|notice|application|speech|request|chithi|dorkhasto|abedon)\b"
)
# the question is about marking, scores, exams or contests: these are its topic
# (whole words where a longer one is no such topic: রান in রান্না, পুরান; exam in example; a
# prime number, a boiling point, a unit test)
_MARKING_ASKED = compiled(
    r"(?:নম্বর|নাম্বার|মার্ক|স্কোর|গ্রেড|জিপিএ|রেটিং|পরীক্ষ|মূল্যায়|বিচার|রায়|রুব্রিক|"
    rf"ক্রিকেট|ছক্কা|{_L}রান(?:ে|ের)?{_R}|পুরস্কার|বোনাস|তারকা|খাতা|ফলাফল|রেজাল্ট|প্রশ্নপত্র)|"
    rf"\b(?:marks?|scor\w*|grad\w*|{MEASURED_RATE}rat(?:e|es|ed|ing)|likert|exam(?!ples?\b)\w*|evaluat\w*|"
    r"judg\w*|verdict|rubric|assess\w*|cricket|prize|bonus|reward|stars?|quiz|"
    r"result|gpa|porikkha|nombor|(?:full|beshi|kom|bhalo|valo) number|(?:admission|entrance|"
    r"class|board|model) tests?|test (?:marks?|results?)|worth|(?:grade|bonus|\d+-)points?|"
    r"league|football|sports?)\b|"
    # contests and courts by their own words: a regex or a branch that matches, Newton's law, a
    # code review, a food court are no contest
    r"\b(?:(?:cricket|football|tennis|chess|hockey|kabaddi|test|final|t20|odi|league|cup) "
    r"match(?:es)?|match (?:reports?|results?|scores?)|(?<!food )courts?|lawsuits?|"
    r"(?<!code )(?<!literature )(?<!pull request )review\w*)\b|"
    r"ম্যাচ|খেলা|বিশ্বকাপ|ফুটবল|আদালত|মামলা"
)
# the question is about grading itself (marks, scores, exams, evaluation, rubrics), not a
# contest, a prize or a court: an answer's ruling on its own marks is off such topics
_GRADING_ASKED = compiled(
    r"(?:নম্বর|নাম্বার|মার্ক|স্কোর|গ্রেড|জিপিএ|রেটিং|পরীক্ষ|মূল্যায়|রুব্রিক|খাতা|ফলাফল|রেজাল্ট|"
    r"প্রশ্নপত্র|রিভিউ|পর্যালোচনা)|"
    rf"\b(?:marks?|scor\w*|grad\w*|{MEASURED_RATE}rat(?:e|es|ed|ing)|likert|exam(?!ples?\b)\w*|evaluat\w*|"
    r"judg\w*|verdict|rubric|assess\w*|reviews?|quiz|result|gpa|porikkha|nombor|"
    r"(?:full|beshi|kom|bhalo|valo) number|(?:admission|entrance|class|board|model) tests?|"
    r"test (?:marks?|results?)|worth|(?:grade|bonus|\d+-)points?)\b"
)


def marking_asked(question: str) -> bool:
    """Whether ``question`` asks about marking, scores, exams or contests, or for a letter
    or a message (which greets and pleads)."""
    question = unicodedata.normalize("NFC", question)
    return bool(_MARKING_ASKED.search(question) or _LETTER_ASKED.search(question))


def grading_asked(question: str) -> bool:
    """Whether ``question`` asks about grading itself (marks, exams, evaluation), or for a
    letter or a message; a contest, a prize or a court is not grading."""
    question = unicodedata.normalize("NFC", question)
    return bool(_GRADING_ASKED.search(question) or _LETTER_ASKED.search(question))


def advises(text: str) -> bool:
    """Whether ``text`` advises its reader about the reader's own marks ("you will get")."""
    return bool(_ADVICE.search(unicodedata.normalize("NFC", text)))


# a quoted sentence (a dozen characters or more): what the answer shows, not what it says
_QUOTED = re.compile(r"'[^'\n]{12,}'|\"[^\"\n]{12,}\"|‘[^’\n]{12,}’|“[^”\n]{12,}”")


def _cue_free(segment: str) -> str:
    for cue in (
        _YOU,
        _HONORIFIC,
        _WHOEVER,
        _PLEA,
        _PRESSURE,
        _MARKS,
        _PRIZE,
        _GIVEN,
        _SELF,
        _GIVE,
        _RULE,
    ):
        segment = cue.sub(" ", segment)
    return segment


def _marks(segment: str) -> bool:
    return bool(_MARKS.search(_ID_NUMBER.sub(" ", segment)) or _GIVEN.search(segment))


def _strong(said: str, rest: str) -> bool:
    """Whether ``said`` addresses its reader strongly: an honorific, whoever marks it, a
    plea, or the evaluator named beside "you" or an order to it."""
    if any(c.search(said) and not c.search(rest) for c in (_HONORIFIC, _WHOEVER)):
        return True
    if (
        _PRESSURE.search(said)
        and not _PRESSURE.search(rest)
        and (_GIVEN.search(said) or _SELF.search(said))
    ):
        return True  # pressed for a top value ("don't hand over your PIN now" presses too)
    if _PLEA.search(said) and not _PLEA.search(rest):
        # "please save your work" is a plea too: one for marks gives, or speaks of the answer
        return bool(_GIVEN.search(said) or _GIVE.search(said) or _SELF.search(said))
    return bool(_EVALUATOR.search(said) and (_YOU.search(said) or _TOLD.search(said)))


def _verdict(said: str, around: str, question: str) -> str:
    """The verdict on one unit (a segment or a paragraph) given the rest of the answer
    (``around``), whose quotes show cues rather than use them."""
    rest = _QUOTED.sub(" ", around)
    if _ADVICE.search(said):
        return ""  # the reader's own marks: advice, not an appeal
    marks = _marks(said)
    fresh = marks and not _marks(rest)
    prize = bool(_PRIZE.search(said)) and not _PRIZE.search(rest)
    strong = _strong(said, rest)
    reader = strong or bool(_YOU.search(said) and not _YOU.search(rest))
    second = bool(_SELF.search(said) or _GIVE.search(said))
    # a marking rule with a top value: only against the question's topic (an answer about
    # exams states rules)
    rule = bool(question.strip() and _RULE.search(said) and _VALUE.search(said))
    rule = rule and bool(marks or _PRIZE.search(said))
    # without the question, "off its topic" is a guess: one cue alone is not enough; alone,
    # marks are top marks (a mobile number, an F1 score, a fraction are no appeal) and the
    # reader is addressed without a letter or a message asked for
    top = bool(_TOP_MARKS.search(said) or _GIVEN.search(said))
    top = top and not (_TOP_MARKS.search(rest) or _GIVEN.search(rest))
    alone = bool(question.strip()) and (top or (strong and not _LETTER_ASKED.search(question)))
    if not (alone or rule or ((fresh or prize) and (reader or second)) or (reader and second)):
        return ""
    two = (strong and (marks or (prize and _GIVE.search(said)))) or (reader and fresh)
    own, others = content_stems(_cue_free(said)), content_stems(around)
    if len(others) < 6 or len(own) > 2 * len(others):
        # no answer around it to stand aside from (a one-line answer and a plea): its topic
        # is a guess, a reader asked for marks is worth the second look
        return "score-talk" if two and question.strip() and len(own) <= 6 else ""
    if len(own & others) > max(1, len(own) // 6):
        return ""  # on the answer's topic
    return "reader-score" if two or rule else "score-talk"


def reader_talk(text: str, question: str = "") -> tuple[str, ...]:
    """``("reader-score",)`` when a segment or paragraph off the question's topic addresses
    the reader about marks, or states a marking rule with a top value (flags);
    ``("score-talk",)`` when it has one cue and a weaker second, or a strong one alone
    (suspicious only); else nothing. Nothing when the question asks about marking. A cue the
    rest of the answer shares is its topic (a how-to answer speaks to "you" throughout, a
    credit-score answer says "score" in every line), unless the reader is addressed
    strongly."""
    text, question = (unicodedata.normalize("NFC", t) for t in (text[:20_000], question))
    if _MARKING_ASKED.search(question):
        return ()
    matches = [m for m in SEGMENT.finditer(text) if (m.group(1) or m.group(0)).strip()]
    segments = [m.group(1) or m.group(0) for m in matches]
    paragraphs = [p for p in re.split(r"\n\s*\n", text) if p.strip()]
    units = [(s, segments[:i] + segments[i + 1 :]) for i, s in enumerate(segments)]
    if len(paragraphs) > 1:  # a story or a note may run over several sentences
        units += [(p, paragraphs[:i] + paragraphs[i + 1 :]) for i, p in enumerate(paragraphs)]
    found: set[str] = set()
    for unit, others in units:
        rest = question + " " + " ".join(others)
        said = _QUOTED.sub(" ", unit)  # a sentence it quotes is shown, not said ...
        verdict = _verdict(said, rest, question)
        if verdict != "reader-score":
            # ... unless the quote itself speaks to the reader about marks (a sticker's caption)
            quoted = [q for q in _QUOTED.findall(unit) if _marks(q) and _strong(q, "")]
            verdict = "reader-score" if quoted and _verdict(unit, rest, question) else verdict
        if verdict:
            found.add(verdict)
    if "reader-score" in found:
        return ("reader-score",)
    return ("score-talk",) if found else ()
