"""How the GUI words the settings and steps an engine message names: a setting as the label
of the control that changes it, a step as the menu item or panel that does it; where the GUI
has no control, what to change, in words. The engine names them neutrally
(:class:`engine.errors.Setting`, :class:`engine.errors.Step`); this is the one table that turns
them into the window's words. Labels are the controls' own msgids, so they read the same in
the message as on the screen, in every language."""

from __future__ import annotations

from engine.errors import Reference, Setting, Step, render
from engine.i18n import _


def controls() -> dict[Setting, str]:
    """Setting -> the translated label of the control that changes it."""
    return {
        Setting.ACCEPT_SCALE: _(
            "Import even if the scores use less than a tenth of the declared scale"
        ),
        Setting.ALLOW_DUPLICATE_CONTENT: _(
            "Import a second copy anyway (another set already holds all of this content)"
        ),
        Setting.ANNOTATOR: _("Annotator"),
        Setting.ANNOTATOR_COL: _("Annotator"),
        Setting.API_MODEL: _("Model on the server"),
        Setting.AVERAGE_ANNOTATORS: _("Several annotators of one segment may be averaged"),
        Setting.CONSTRAINED_DECODING: _("constrained decoding (JSON schema)"),
        Setting.CONNECT_TIMEOUT: _("Connect timeout"),
        Setting.CONSTRAINED: _("constrained to the options"),
        Setting.CONVERT_BIJOY: _("Convert Bijoy text to Unicode on import"),
        Setting.COUNTERBALANCE: _("both option orders"),
        Setting.CORPORA: _("Corpora"),
        Setting.DEFAULT_MODEL: _("Make it the workspace's default model"),
        Setting.DIALECT_COL: _("Dialect of each row (long file)"),
        Setting.DIALECT_COLUMN: _("Dialect text column"),
        Setting.DIALECT_TEXT_COL: _("Dialect text column"),
        Setting.DIALECT_MAP: _("Dialect names"),
        Setting.DIRECTION: _("Direction"),
        Setting.DRAW_TRAIN: _("Train draw"),
        Setting.DISTRICT_COL: _("District column"),
        Setting.DOMAIN_COL: _("Domain"),
        Setting.ENCODER: _("Encoder folder"),
        Setting.EXPORT_FORMAT: _("Format"),
        Setting.GLOSS_COL: _("English gloss"),
        Setting.GROUPS: _("Groups"),
        Setting.HUMAN_SCALE: _("Human score scale"),
        Setting.HYP_COL: _("System output"),
        Setting.ID_COL: _("Question id"),
        Setting.JUDGE_MODEL: _("Judge model"),
        Setting.KEYRING_SERVICE: _("API key"),
        Setting.LABEL_COL: _("Label"),
        Setting.LABEL_NAME_COL: _("Label name column"),
        Setting.LABEL_NAMES: _("Label names"),
        Setting.LIMIT: _("Limit"),
        Setting.ITEM_SOURCE: _("Items"),
        Setting.K: _("k per dialect"),
        Setting.K_SWEEP: _("k sweep"),
        Setting.MAX_RETRIES: _("Retries of a failed request"),
        Setting.MAX_TOKENS: _("Longest answer"),
        Setting.MEASURE: _("Measures (a name, a column and a scale each)"),
        Setting.MODEL: _("Model"),
        Setting.MODELS: _("Models"),
        Setting.MODEL_LIST: _("Models"),
        Setting.NAME_BN: _("Bengali name"),
        Setting.NAME_EN: _("English name"),
        Setting.NORMALIZE: _("Normalisation"),
        Setting.QUESTION_TEXT_COL: _("Question text"),
        Setting.RATERS: _("Raters per shared item:"),
        Setting.READ_TIMEOUT: _("Read timeout"),
        Setting.RENAME: _("Rename"),
        Setting.REF_COLS: _("References"),
        Setting.RUBRIC: _("Rubric"),
        Setting.SCORE_COL: _("Score column"),
        Setting.SCORE_COLS: _("Score columns"),
        Setting.SEG_ID_COL: _("Segment id"),
        Setting.SET_NAME: _("Name in the workspace"),
        Setting.SOURCE_COL: _("Source text"),
        Setting.SPLIT: _("Split"),
        Setting.SPLIT_COL: _("Split"),
        Setting.SPLITS: _("Indexed splits"),
        Setting.STANDARD_COL: _("Standard Bengali column"),
        Setting.STATUS: _("Status of dialect variants"),
        Setting.STRIP_LEADING_TOKEN: _(
            "Strip a leading label token shared by ≥90% of a dialect's texts (e.g. the region's name)"
        ),
        Setting.SYSTEM: _("System"),
        Setting.SYSTEM_COL: _("System"),
        Setting.TOPIC: _("Topic"),
        Setting.TYPE_COL: _("Question type (1-4)"),
        Setting.DIALECTS: _("Only dialects"),
        Setting.DIALECT_LIST: _("Dialects"),
        Setting.REGIMES: _("Regimes"),
        Setting.SCHEME: _("Romanization scheme"),
        Setting.SCRIPTS: _("Scripts"),
        Setting.TASK: _("Task"),
        Setting.QUESTION_SET: _("Question set"),
        Setting.PROBE_SETS: _("Set"),
        Setting.QUESTIONS: _("Question set"),
        Setting.TARGET_DIALECTS: _("Dialects"),
        Setting.VARIANT_COLS: _("Variant columns"),
    }


def setting_words() -> dict[Setting, str]:
    """Setting -> what to change, in words, for the settings the GUI has no control for."""
    return {
        Setting.AVERAGE_DUPLICATES: _("averaging repeated (source, output) pairs"),
        Setting.ANSWERS_OF: _("the answering models whose answers are judged"),
        Setting.INSTRUCTION: _("the probe instruction asked before every probe"),
        Setting.ITEM: _("the annotation item, scored in the Annotation panel"),
        Setting.JUDGE_TEMPLATE: _("the judge's prompt template"),
        Setting.MAX_ATTEMPTS: _(
            "how many times the judge is asked when its reply is not a valid verdict"
        ),
        Setting.POSITIONAL_IDS: _("numbering segments by their position in the file"),
        Setting.NO_INSTRUCTION: _("asking the probes exactly as written, without an instruction"),
        Setting.N_SEQ: _("the number of sequences a local model decodes together"),
        Setting.PROMPT_FILE: _("the file of prompts"),
        Setting.TEMPERATURE: _("the sampling temperature"),
        Setting.PROMPTS: _("the folder of this workspace's own prompt files"),
        Setting.PRIMARY: _("making this judge the primary one"),
        Setting.REFILL: _("how many groups of sequences a local model plans at once"),
        Setting.RUN: _("the run to decode again"),
        Setting.SAMPLE: _("the number of items decoded again"),
        Setting.SEED: _("the seed of the step's random draws (its sample, the order of options)"),
        Setting.SKIP_EMPTY: _("skipping rows with an empty text cell"),
    }


def actions() -> dict[Step, str]:
    """Step -> the translated label of the menu item or button that takes it."""
    return {
        Step.ADD_ANNOTATORS: _("Add annotators…"),
        Step.ADD_DIALECT: _("Add a dialect…"),
        Step.ADD_DEFAULT_MODEL: _("Make it the workspace's default model"),
        Step.CREATE_WORKSPACE: _("Create a new workspace…"),
        Step.GENERATE_PROBES: _("Generate probes from templates…"),
        Step.IMPORT_PROBES: _("Import probes…"),
        Step.JUDGE: _("Run judge on all answers"),
        Step.LIST_JUDGE_RUNS: _("Judge runs"),
        Step.LIST_MODELS: _("Models"),
        Step.OVERRIDE: _("Human override (the judge's scores are kept)"),
    }


def step_words() -> dict[Step, str]:
    """Step -> where the GUI takes it, in words, for steps with no single menu item."""
    return {
        Step.ADD_MODEL: _("the Models panel"),
        Step.BUILD_INDEX: _("a new retrieval index"),
        Step.PROBES_TO_QUESTIONS: _("turning the probe set into a question set"),
        Step.QUEUE: _("the judge panel's review queue"),
    }


def label(text: str) -> str:
    """A translated label as it reads inside a sentence (no accelerator, no trailing colon or
    ellipsis)."""
    return text.replace("&", "").rstrip(":…").strip()


def gui_words(reference: Reference) -> str:
    """One reference in the window's words."""
    if reference.kind == "step":
        step = Step(reference.name)
        if step in step_words():
            return step_words()[step]
        return _("“{action}”").format(action=label(actions()[step]))
    setting = Setting(reference.name)
    if setting in setting_words():
        control = setting_words()[setting]
        if reference.value is not None:
            return _("{setting} set to {value}").format(setting=control, value=reference.value)
        return control
    control = label(controls()[setting])
    if reference.value is not None:
        return _("“{control}” set to {value}").format(control=control, value=reference.value)
    return _("“{control}”").format(control=control)


def for_gui(text: str) -> str:
    """An engine message as the window says it."""
    return render(text, gui_words)


def load_failure(summaries: list[dict], message: str) -> str:
    """``message`` (a translated "… failed: {error}") saying why a model step's model did not
    load, in the window's words; '' when every model loaded. The engine reports a model that
    did not load in the runs' summaries (``load_error``) instead of raising."""
    reasons = sorted({for_gui(s["load_error"]) for s in summaries if s.get("load_error")})
    return message.format(error="; ".join(reasons)) if reasons else ""
