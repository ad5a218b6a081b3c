"""The engine stages' front doors for the CLI, each imported when a command first needs it.

Importing them all at start-up would make every command, ``--help`` included, wait for the
stages it does not use; the comments name what each one pulls in (``python -X importtime``
after ``import app.cli`` shows the cost). The workspace and annotation front doors are cheap
(their modules are loaded by the CLI anyway) and are imported at the top of the command modules.
"""

from __future__ import annotations


def llm():  # jobs, factory, GGUF reader, backend report
    from engine.llm import api

    return api


def importing():  # the tabular readers and column guessing
    from engine.importing import api

    return api


def rag():  # index, encoder and retriever
    from engine.rag import api

    return api


def translation():  # translation, metrics and review
    from engine.translation import api

    return api


def judging():  # the judge run, injection checks, rubric and verdict parsing
    from engine.judging import api

    return api


def reports():  # study statistics, chart data, HTML report
    from engine.reports import api

    return api


def bias():  # probe import, results and statistics
    from engine.bias import api

    return api


def understanding():  # task files (tomllib), parsing and metrics
    from engine.understanding import api

    return api


def answering():  # the answer loop over llm.jobs
    from engine.answering import api

    return api


def steps():  # every model step's request kind (each stage's request module)
    from engine.steps import api

    return api


def steps_tasks():  # batch export and import of a step's request
    from engine.steps import tasks

    return tasks
