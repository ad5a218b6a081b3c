"""Errors a user can act on. The CLI prints them as one line and exits 2 (a
:class:`StepIncomplete`: 3, with how to resume); anything else is an internal error (exit 1,
details in the log file)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from engine.i18n import _


class UserError(Exception):
    """A problem with the user's input or environment, stated so they can fix it. The
    settings and steps that fix it are named with :func:`setting` and :func:`step` (never as a
    front end's words); :attr:`references` lists them."""

    @property
    def references(self) -> list[Reference]:
        return references(str(self))


class StepIncomplete(UserError):
    """A step stopped before its items were done for a reason that may pass (a model that
    did not load, a worker that died): what finished is saved and running the same command
    again resumes. Not a mistake in the user's input, so never exit 2."""


class ImportRejected(UserError):
    """A file was refused; the message names file, line and column where known."""

    def __init__(self, path, message: str, line: int | None = None, column: str | None = None):
        where = str(path)
        if line is not None:
            where += _(", line {line}").format(line=line)
        if column:
            where += _(", column '{column}'").format(column=column)
        super().__init__(f"{where}: {message}")
        self.path, self.line, self.column, self.reason = path, line, column, message


class Setting(StrEnum):
    """A setting that fixes a problem, named the engine's way. A message names one with
    :func:`setting`; each front end words it: the CLI as its option, the GUI as its control's
    label (or, where it has no control, what to change)."""

    ACCEPT_SCALE = "accept_scale"
    ALLOW_DUPLICATE_CONTENT = "allow_duplicate_content"
    ANNOTATOR = "annotator"
    ANNOTATOR_COL = "annotator_col"
    ANSWERS_OF = "answers_of"
    API_MODEL = "api_model"
    CONNECT_TIMEOUT = "connect_timeout"
    CONSTRAINED = "constrained"
    AVERAGE_ANNOTATORS = "average_annotators"
    CONSTRAINED_DECODING = "constrained_decoding"
    AVERAGE_DUPLICATES = "average_duplicates"
    CONVERT_BIJOY = "convert_bijoy"
    COUNTERBALANCE = "counterbalance"
    CORPORA = "corpora"
    DEFAULT_MODEL = "default_model"
    DIALECT_COL = "dialect_col"
    DIALECT_COLUMN = "dialect_column"
    DIALECT_MAP = "dialect_map"
    DIRECTION = "direction"
    DRAW_TRAIN = "draw_train"
    DISTRICT_COL = "district_col"
    DOMAIN_COL = "domain_col"
    ENCODER = "encoder"
    EXPORT_FORMAT = "export_format"
    GLOSS_COL = "gloss_col"
    GROUPS = "groups"
    HUMAN_SCALE = "human_scale"
    HYP_COL = "hyp_col"
    ID_COL = "id_col"
    INSTRUCTION = "instruction"
    ITEM = "item"
    ITEM_SOURCE = "item_source"
    JUDGE_MODEL = "judge_model"
    JUDGE_TEMPLATE = "judge_template"
    KEYRING_SERVICE = "keyring_service"
    K = "k"
    K_SWEEP = "k_sweep"
    LABEL_COL = "label_col"
    LABEL_NAME_COL = "label_name_col"
    LABEL_NAMES = "label_names"
    LIMIT = "limit"
    MAX_RETRIES = "max_retries"
    MAX_ATTEMPTS = "max_attempts"
    MAX_TOKENS = "max_tokens"
    MEASURE = "measure"
    MODEL = "model"
    MODEL_LIST = "model_list"
    MODELS = "models"
    N_SEQ = "n_seq"
    NAME_BN = "name_bn"
    NAME_EN = "name_en"
    NO_INSTRUCTION = "no_instruction"
    NORMALIZE = "normalize"
    PROMPT_FILE = "prompt_file"
    PROMPTS = "prompts"
    PROBE_SETS = "probe_sets"
    QUESTION_SET = "question_set"
    QUESTIONS = "questions"
    REFILL = "refill"
    REGIMES = "regimes"
    POSITIONAL_IDS = "positional_ids"
    PRIMARY = "primary"
    SET_NAME = "set_name"
    RATERS = "raters"
    READ_TIMEOUT = "read_timeout"
    RENAME = "rename"
    REF_COLS = "ref_cols"
    RUBRIC = "rubric"
    RUN = "run"
    SAMPLE = "sample"
    SCORE_COL = "score_col"
    SCHEME = "scheme"
    SCRIPTS = "scripts"
    SCORE_COLS = "score_cols"
    SEED = "seed"
    SEG_ID_COL = "seg_id_col"
    SKIP_EMPTY = "skip_empty"
    SOURCE_COL = "source_col"
    SPLIT = "split"
    SPLIT_COL = "split_col"
    SPLITS = "splits"
    STANDARD_COL = "standard_col"
    STATUS = "status"
    STRIP_LEADING_TOKEN = "strip_leading_token"
    SYSTEM = "system"
    SYSTEM_COL = "system_col"
    TARGET_DIALECTS = "target_dialects"
    TASK = "task"
    TEMPERATURE = "temperature"
    DIALECT_TEXT_COL = "dialect_text_col"
    DIALECTS = "dialects"
    DIALECT_LIST = "dialect_list"
    QUESTION_TEXT_COL = "question_text_col"
    TOPIC = "topic"
    TYPE_COL = "type_col"
    VARIANT_COLS = "variant_cols"


class Step(StrEnum):
    """A step to take next, named the engine's way: the CLI words it as its command, the GUI
    as the panel or menu item that does it."""

    ADD_ANNOTATORS = "add_annotators"
    ADD_DIALECT = "add_dialect"
    ADD_MODEL = "add_model"
    ADD_DEFAULT_MODEL = "add_default_model"
    BUILD_INDEX = "build_index"
    CREATE_WORKSPACE = "create_workspace"
    GENERATE_PROBES = "generate_probes"
    IMPORT_PROBES = "import_probes"
    JUDGE = "judge"
    LIST_JUDGE_RUNS = "list_judge_runs"
    LIST_MODELS = "list_models"
    OVERRIDE = "override"
    PROBES_TO_QUESTIONS = "probes_to_questions"
    QUEUE = "queue"


@dataclass(frozen=True)
class Reference:
    """One setting or step a message names: ``kind`` is "setting" (the setting alone),
    "usage" (the setting with the form its value takes) or "step"; ``value`` a concrete
    value for the setting, when the message gives one."""

    kind: Literal["setting", "usage", "step"]
    name: str
    value: str | None = None


# A reference travels inside the message text, so it survives every way a message is passed
# on (wrapped in ImportRejected, quoted in another error, kept in a report) until a front end
# shows it. The brackets never occur in a message's own words.
REFERENCE = re.compile(r"⟦(setting|usage|step):([a-z_]+)(?:=([^⟧]*))?⟧")


def setting(name: Setting, value: object | None = None) -> str:
    """``name`` in a message, set to ``value`` when given (``--normalize none`` in the CLI)."""
    return f"⟦setting:{Setting(name).value}{'' if value is None else f'={value}'}⟧"


def setting_usage(name: Setting) -> str:
    """``name`` with the form its value takes (``--human-scale MIN-MAX`` in the CLI)."""
    return f"⟦usage:{Setting(name).value}⟧"


def step(name: Step) -> str:
    """The step ``name`` in a message (``'upabhasha judge'`` in the CLI)."""
    return f"⟦step:{Step(name).value}⟧"


def references(text: str) -> list[Reference]:
    """The settings and steps ``text`` names, in order."""
    return [_reference(m) for m in REFERENCE.finditer(text)]


def render(text: str, words: Callable[[Reference], str]) -> str:
    """``text`` with every reference worded by a front end's ``words``."""
    return REFERENCE.sub(lambda m: words(_reference(m)), text)


def plain_words(reference: Reference) -> str:
    """A reference in words of no front end ("the setting 'accept scale'", "the step
    'queue'"), for text that is kept rather than shown at once (a written report)."""
    name = reference.name.replace("_", " ")
    if reference.kind == "step":
        return f"the step '{name}'"
    return f"the setting '{name}'" + (f" = {reference.value}" if reference.value else "")


def _reference(match: re.Match[str]) -> Reference:
    return Reference(match[1], match[2], match[3])  # type: ignore[arg-type]  # the pattern's kinds
