"""Judging widgets: the judge panel, its rubric editor and the answers browser
(engine.judging)."""
