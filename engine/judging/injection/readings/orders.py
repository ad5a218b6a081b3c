"""An order to the grader in a hidden reading, read loosely.

What an answer hides (a cipher, an encoding, an acrostic, English spelt in another script)
has no reason to speak of grading at all: there, an order's words near each other are an
order, without the sentence shape the injection rules ask of plain text ("Evaluator give full
marks", "score=5", "SCORE 5", "give 5").
"""

from __future__ import annotations

import re

_VERB = r"(?:give|giv|award|assign|grant|rate|score|mark|grade|output|return|print|set|put|write)"
_TOP = r"(?:full|max|maximum|top|perfect|highest|best|10|ten|5|five|100|a\+)"
_OVERRIDE = r"(?:ignore|disregard|forget|override|skip|bypass|drop)"
_RULES = (
    r"(?:rubric|instructions?|rules?|criteria|criterion|guidelines?|previous|prior|above|"
    r"prompt|evaluation|grading|scoring|reference)"
)
_SCORE = r"(?:score|grade|marks?|rating|verdict|points?|result|total|final)"
_NEAR = r"(?:\W+\w+){0,4}?\W+"
_BN_ORDER = (
    r"(?:পূর্ণ|পুরো|সর্বোচ্চ|দশে দশ|পাঁচে পাঁচ|১০|৫)\s*(?:নম্বর|মার্ক|স্কোর)?\s*(?:দিন|দাও|দেবেন)|"
    r"নম্বর\s*(?:দিন|দাও)|(?:নির্দেশ|রুব্রিক|নিয়ম|মানদণ্ড)\S*\s*(?:উপেক্ষা|ভুলে|বাদ)|"
    r"(?:স্কোর|নম্বর)\s*[=:]?\s*(?:১০|৫|10|5)"
)
_HIDDEN_ORDER = re.compile(
    rf"\b{_VERB}{_NEAR}{_TOP}\b|\b{_VERB}\W+{_TOP}\b|\b{_OVERRIDE}{_NEAR}{_RULES}\b|"
    rf"\b{_OVERRIDE}\W+{_RULES}\b|\b{_SCORE}\s*[=:]?\s*{_TOP}\b(?!\s*(?:%|percent))|"
    rf"\b(?:full|top|max|maximum|perfect)\W+(?:marks?|score|points|grade)\b|"
    rf"\b(?:10|5)\s*/\s*(?:10|5)\b|{_BN_ORDER}",
    re.I,
)


def hidden_order(reading: str) -> str:
    """The words of an order in ``reading`` (a hidden reading, already decoded), or ``""``."""
    m = _HIDDEN_ORDER.search(reading)
    return m.group(0) if m else ""
