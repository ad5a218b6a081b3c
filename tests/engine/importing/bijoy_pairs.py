"""Bijoy (SutonnyMJ) <-> Unicode pairs written for this project, to measure converters.

Each Bijoy string is what the Bijoy keyboard produces for the Unicode text (glyphs in
visual order: ি ে ৈ before their consonant, the reph mark after it)."""

PAIRS = [
    ("Avwg evsjvq K_v ewj", "আমি বাংলায় কথা বলি"),
    ("Avgvi †mvbvi evsjv", "আমার সোনার বাংলা"),
    ("Avwg †Zvgv‡K fv‡jvevwm", "আমি তোমাকে ভালোবাসি"),
    ("evsjv‡`k", "বাংলাদেশ"),
    ("XvKv", "ঢাকা"),
    ("RvZxq msMxZ", "জাতীয় সংগীত"),
    ("K…lK", "কৃষক"),
    ("we`¨vjq", "বিদ্যালয়"),
    ("gvbyl", "মানুষ"),
    ("c…w_ex", "পৃথিবী"),
    ("Kg©", "কর্ম"),
    ("wkÿv", "শিক্ষা"),
    ("b`x", "নদী"),
    ("PÆMÖvg", "চট্টগ্রাম"),
    ("wm‡jU", "সিলেট"),
    ("cvwL", "পাখি"),
    ("fvB", "ভাই"),
    ("DËi", "উত্তর"),
    ("Ni", "ঘর"),
    ("‡gŠjfx evRvi", "মৌলভী বাজার"),
    ("AvR 12 Zvwi‡L", "আজ ১২ তারিখে"),
    ("†ckv", "পেশা"),
    ("Kgx©", "কর্মী"),
    ("c~e©", "পূর্ব"),
    ("¯‹zj", "স্কুল"),
    ("gš¿x", "মন্ত্রী"),
    ("‰kjx", "শৈলী"),
    ("ivóª", "রাষ্ট্র"),
    ("Avcwb †Kgb Av‡Qb?", "আপনি কেমন আছেন?"),
    ("‡m evwo †M‡Q|", "সে বাড়ি গেছে।"),
]
