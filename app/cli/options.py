"""Options several commands share, declared once so they read the same everywhere."""

from __future__ import annotations

from engine.text.textnorm import DEFAULT_NORMALIZATION, NORMALIZATIONS


def add_normalize_option(parser, *, scoring: bool = False) -> None:
    """``--normalize nfc|none``: what an import stores, or (``scoring``) what a scorer scores,
    by default the choice its texts were imported with (engine.importing.stored_choice)."""
    parser.add_argument(
        "--normalize",
        choices=NORMALIZATIONS,
        default=None if scoring else DEFAULT_NORMALIZATION,
        help="text the metrics score: nfc (NFC, white space folded; both spellings of য় "
        "count as one) or none (exactly as given: reproduces sacrebleu on the raw file); "
        "named in every signature ("
        + (
            "default: the choice the texts were imported with; another one is noted"
            if scoring
            else "default nfc; stored with the texts"
        )
        + ")",
    )


def add_skip_empty(p) -> None:
    p.add_argument(
        "--skip-empty",
        action="store_true",
        help="skip rows whose required text cell is empty, counted with their line numbers "
        "(otherwise such a row refuses the file)",
    )
