"""Answers that address the judge: the detector (``detect.py``), the rules
it weighs (English, Bengali, Banglish and the dialects, appeals, verdict shapes, attacks
discussed rather than made), the form an answer is matched in, obfuscation decoded, and
the learned model with its training."""
