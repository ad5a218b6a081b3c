"""The importing stage's front door: file imports (corpus, questions, scored translations),
dialect codes and names, exports of any table or view, and reading tabular files.

Queries and single writes only; the import dialog's background work is in
:mod:`engine.importing.tasks`. Front ends import these two modules, never the stage's others
(.importlinter).
"""

from __future__ import annotations

from engine.importing.columns import BIJOY_HINT, SPLITS, ImportReportDict, count_lines
from engine.importing.dialects import (
    DialectInfo,
    DialectNames,
    RenameNeeded,
    add_dialect,
    aliases_kept,
    checked_dialect_names,
    list_dialects,
    parse_dialect_map,
)
from engine.importing.duplicates import DUPLICATE_HINT, DuplicateContent
from engine.importing.exporters import export_table, exportable, neutralize
from engine.importing.importers import import_corpus, import_questions
from engine.importing.scored_import import (
    import_scored_translations,
    parse_measure,
    record_segment_score,
)
from engine.importing.tabular import read_rows

__all__ = [
    "BIJOY_HINT",
    "DUPLICATE_HINT",
    "SPLITS",
    "DialectInfo",
    "DialectNames",
    "DuplicateContent",
    "ImportReportDict",
    "RenameNeeded",
    "add_dialect",
    "aliases_kept",
    "checked_dialect_names",
    "count_lines",
    "export_table",
    "exportable",
    "import_corpus",
    "import_questions",
    "import_scored_translations",
    "list_dialects",
    "neutralize",
    "parse_dialect_map",
    "parse_measure",
    "read_rows",
    "record_segment_score",
]
