"""How the CLI words the settings and steps an engine message names: a setting as its option
(``--accept-scale``), a step as its command (``'upabhasha judge'``). The engine names them
neutrally (:class:`engine.errors.Setting`, :class:`engine.errors.Step`); this is the one table
that turns them into command-line words."""

from __future__ import annotations

from engine.errors import Reference, Setting, Step, render

# option and the form of its value (None: a switch)
OPTIONS: dict[Setting, tuple[str, str | None]] = {
    Setting.ACCEPT_SCALE: ("--accept-scale", None),
    Setting.AVERAGE_DUPLICATES: ("--average-duplicates", None),
    Setting.ALLOW_DUPLICATE_CONTENT: ("--allow-duplicate-content", None),
    Setting.ANNOTATOR: ("--annotator", "NAME"),
    Setting.ANNOTATOR_COL: ("--annotator-col", "COLUMN"),
    Setting.ANSWERS_OF: ("--answers-of", "MODEL"),
    Setting.API_MODEL: ("--api-model", "MODEL"),
    Setting.AVERAGE_ANNOTATORS: ("--average-annotators", None),
    Setting.CONSTRAINED_DECODING: ("--constrained", None),
    Setting.CONNECT_TIMEOUT: ("--connect-timeout", "S"),
    Setting.CONSTRAINED: ("--constrained", None),
    Setting.CONVERT_BIJOY: ("--convert-bijoy", None),
    Setting.COUNTERBALANCE: ("--counterbalance", None),
    Setting.CORPORA: ("--corpus", "NAMES"),
    Setting.DEFAULT_MODEL: ("--default", None),
    Setting.DIALECT_COL: ("--dialect-col", "COLUMN"),
    Setting.DIALECT_COLUMN: ("--dialect-column", "CODE=COL"),
    Setting.DIALECT_TEXT_COL: ("--text-col", "COLUMN"),
    Setting.DIALECTS: ("--dialect", "CODE"),
    Setting.DIALECT_LIST: ("--dialects", "CODE,CODE"),
    Setting.DIALECT_MAP: ("--dialect-map", "FROM=TO"),
    Setting.DIRECTION: ("--direction", "DIRECTION"),
    Setting.DRAW_TRAIN: ("--draw-train", "N"),
    Setting.DISTRICT_COL: ("--district-col", "COLUMN"),
    Setting.DOMAIN_COL: ("--domain-col", "COLUMN"),
    Setting.ENCODER: ("--encoder", "PATH"),
    Setting.EXPORT_FORMAT: ("--format", "FORMAT"),
    Setting.GLOSS_COL: ("--gloss-col", "COLUMN"),
    Setting.GROUPS: ("--groups", "X,Y"),
    Setting.HUMAN_SCALE: ("--human-scale", "MIN-MAX"),
    Setting.HYP_COL: ("--hyp-col", "COLUMN"),
    Setting.ID_COL: ("--id-col", "COLUMN"),
    Setting.INSTRUCTION: ("--instruction", "FILE"),
    Setting.ITEM: ("human-score --item", "ITEM"),
    Setting.ITEM_SOURCE: ("--items", "SOURCE"),
    Setting.JUDGE_MODEL: ("--judge", "MODEL"),
    Setting.JUDGE_TEMPLATE: ("--template", "PATH"),
    Setting.KEYRING_SERVICE: ("--keyring-service", "SERVICE"),
    Setting.K: ("--k", "K"),
    Setting.K_SWEEP: ("--k-sweep", "K,K"),
    Setting.LABEL_COL: ("--label-col", "COLUMN"),
    Setting.LABEL_NAME_COL: ("--label-name-col", "COLUMN"),
    Setting.LABEL_NAMES: ("--label-names", "LABEL=NAME,LABEL=NAME"),
    Setting.LIMIT: ("--limit", "N"),
    Setting.MAX_RETRIES: ("--max-retries", "N"),
    Setting.MAX_ATTEMPTS: ("--max-attempts", "N"),
    Setting.MAX_TOKENS: ("--max-tokens", "N"),
    Setting.MEASURE: ("--measure", "NAME=COLUMN:MIN-MAX"),
    Setting.MODEL: ("--model", "MODEL"),
    Setting.MODELS: ("--model", "MODEL"),
    Setting.MODEL_LIST: ("--models", "MODEL,MODEL"),
    Setting.N_SEQ: ("--n-seq", "N"),
    Setting.NAME_BN: ("--name-bn", "NAME"),
    Setting.NAME_EN: ("--name-en", "NAME"),
    Setting.NO_INSTRUCTION: ("--no-instruction", None),
    Setting.READ_TIMEOUT: ("--read-timeout", "S"),
    Setting.RENAME: ("--rename", None),
    Setting.NORMALIZE: ("--normalize", "MODE"),
    Setting.PROMPT_FILE: ("FILE", None),
    Setting.PROMPTS: ("--prompts", "DIR"),
    Setting.PROBE_SETS: ("--sets", "SET,SET"),
    Setting.QUESTION_SET: ("--question-set", "NAME"),
    Setting.QUESTIONS: ("--questions", "NAME"),
    Setting.REFILL: ("--refill", "N"),
    Setting.REGIMES: ("--regimes", "REGIME,REGIME"),
    Setting.POSITIONAL_IDS: ("--positional-ids", None),
    Setting.PRIMARY: ("--primary", None),
    Setting.SET_NAME: ("--name", "NAME"),
    Setting.QUESTION_TEXT_COL: ("--text-col", "COLUMN"),
    Setting.RATERS: ("--raters", "N"),
    Setting.REF_COLS: ("--ref-cols", "COLUMN"),
    Setting.RUBRIC: ("--rubric", "PATH"),
    Setting.RUN: ("RUN", None),
    Setting.SAMPLE: ("--sample", "N"),
    Setting.SCORE_COL: ("--score-col", "COLUMN"),
    Setting.SCHEME: ("--scheme", "SCHEME"),
    Setting.SCRIPTS: ("--scripts", "SCRIPT,SCRIPT"),
    Setting.SCORE_COLS: ("--score-cols", "COLUMN"),
    Setting.SEED: ("--seed", "N"),
    Setting.SEG_ID_COL: ("--seg-id-col", "COLUMN"),
    Setting.SKIP_EMPTY: ("--skip-empty", None),
    Setting.SOURCE_COL: ("--source-col", "COLUMN"),
    Setting.SPLIT: ("--split", "SPLIT"),
    Setting.SPLIT_COL: ("--split-col", "COLUMN"),
    Setting.SPLITS: ("--splits", "SPLITS"),
    Setting.STANDARD_COL: ("--standard-col", "COLUMN"),
    Setting.STATUS: ("--status", "STATUSES"),
    Setting.STRIP_LEADING_TOKEN: ("--strip-leading-token", "MODE"),
    Setting.SYSTEM: ("--system", "NAME"),
    Setting.SYSTEM_COL: ("--system-col", "COLUMN"),
    Setting.TARGET_DIALECTS: ("--dialects", "CODES"),
    Setting.TASK: ("TASK", None),
    Setting.TEMPERATURE: ("--temperature", "T"),
    Setting.TOPIC: ("--topic", "TOPIC"),
    Setting.TYPE_COL: ("--type-col", "COLUMN"),
    Setting.VARIANT_COLS: ("--variant-cols", "COLUMN"),
}

STEP_COMMANDS: dict[Step, str] = {
    Step.ADD_ANNOTATORS: "upabhasha annotators add",
    Step.ADD_DIALECT: "upabhasha dialects add",
    Step.ADD_MODEL: "upabhasha models add",
    Step.ADD_DEFAULT_MODEL: "upabhasha models add … --default",
    Step.BUILD_INDEX: "upabhasha index",
    Step.CREATE_WORKSPACE: "upabhasha init",
    Step.GENERATE_PROBES: "upabhasha probes generate",
    Step.IMPORT_PROBES: "upabhasha import probes FILE",
    Step.JUDGE: "upabhasha judge",
    Step.LIST_JUDGE_RUNS: "upabhasha judges",
    Step.LIST_MODELS: "upabhasha models list",
    Step.OVERRIDE: "upabhasha override",
    Step.PROBES_TO_QUESTIONS: "upabhasha probes to-questions",
    Step.QUEUE: "upabhasha queue",
}


def cli_words(reference: Reference) -> str:
    """One reference in command-line words."""
    if reference.kind == "step":
        return f"'{STEP_COMMANDS[Step(reference.name)]}'"
    option, metavar = OPTIONS[Setting(reference.name)]
    if reference.value is not None:
        return f"{option} {reference.value}"
    if reference.kind == "usage" and metavar:
        return f"{option} {metavar}"
    return option


def for_cli(text: str) -> str:
    """An engine message as the CLI says it."""
    return render(text, cli_words)
