"""The engine stages' front doors for the CLI, each imported when a command first needs it.

Importing them all at start-up would make every command, ``--help`` included, wait for the
stages it does not use: measured with ``python -X importtime`` after ``import app.cli``
(2 shared cores, load about 3), each adds the milliseconds named below. The workspace and
annotation front doors are cheap (their modules are loaded by the CLI anyway) and are
imported at the top of the command modules.
"""

from __future__ import annotations


def llm():  # 40-50 ms: jobs, factory, GGUF reader, backend report
    from engine.llm import api

    return api


def importing():  # 20-35 ms: the tabular readers and column guessing
    from engine.importing import api

    return api


def rag():  # 20-40 ms: index, encoder and retriever
    from engine.rag import api

    return api


def translation():  # 30-70 ms: translation, metrics and review
    from engine.translation import api

    return api


def judging():  # 60-115 ms: the judge run, injection checks, rubric and verdict parsing
    from engine.judging import api

    return api


def reports():  # 60-80 ms: study statistics, chart data, HTML report
    from engine.reports import api

    return api


def bias():  # 50-65 ms: probe import, results and statistics
    from engine.bias import api

    return api


def understanding():  # 50-70 ms: task files (tomllib), parsing and metrics
    from engine.understanding import api

    return api


def answering():  # the answer loop over llm.jobs
    from engine.answering import api

    return api
