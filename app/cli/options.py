"""Options several commands share, declared once so they read the same everywhere."""

from __future__ import annotations

from engine.text.textnorm import DEFAULT_NORMALIZATION, NORMALIZATIONS


def add_normalize_option(parser) -> None:
    """``--normalize nfc|none``: what the metrics score (engine.text.textnorm.NORMALIZATIONS)."""
    parser.add_argument(
        "--normalize",
        choices=NORMALIZATIONS,
        default=DEFAULT_NORMALIZATION,
        help="text the metrics score: nfc (NFC, white space folded; both spellings of য় "
        "count as one) or none (exactly as given: reproduces sacrebleu on the raw file); "
        "named in every signature (default nfc)",
    )
