"""The GUI-only walkthrough of the annotation round trip (scripts/annotation_walkthrough.sh),
one PNG a step.

Starts the real MainWindow with fresh config and data folders and no workspace, opens the
sample workspace from the welcome page, then, only through the window's widgets: adds two
annotators with their dialects, assigns a blind batch with overlap, exports each annotator's
review package (File menu), closes the workspace and opens each package from the welcome
page as the field laptop would, decides every item (edits typed with Avro phonetic typing),
merges both packages in both orders (into the lab workspace and into a copy of it made
before the merge), adjudicates a disagreement and computes agreement.

As in scripts/walkthrough.py, only the operating system's file picker is answered by the
script (QFileDialog's static functions); the app's own dialogs, including the annotator
choice on export, are driven as they are. No model is needed, so the whole walk takes
seconds; tests/app/test_annotation_walkthrough.py runs it offscreen and checks the
workspaces after each step.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from gui_driving import (  # noqa: E402
    GuiWalk,
    WalkError,
    check,
    click,
    input_dialog_answers,
    open_main_window,
    settle,
    shoot,
    tick,
    trigger,
    type_into,
    type_number,
    wait_until,
    walk_all,
    watch_message_boxes,
)

REPO = Path(__file__).resolve().parent.parent
WINDOW_SIZE = (1366, 768)  # the field laptop
# (name, dialects): both speak both, so the shared items have two raters
ANNOTATORS = [("রিনা", ["chittagong", "sylhet"]), ("Karim", ["chittagong", "sylhet"])]
BATCH, OVERLAP, SEED = "field round 1", 50, 2026
# what each annotator types, with Avro phonetic typing, for their first item
AVRO_EDITS = {"রিনা": "ami bhat khaichi", "Karim": "ami bhat khaisi"}
ADJUDICATOR = "Lead"

log = logging.getLogger("annotation_walkthrough")


@dataclass(kw_only=True)
class Walk(GuiWalk):
    folder: Path  # the packages and the copy of the lab workspace live here
    packages: dict[str, Path] = field(default_factory=dict)
    lab: Path | None = None
    lab_copy: Path | None = None
    package_panels: dict[str, object] = field(default_factory=dict)
    merged_lab: list[dict] = field(default_factory=list)  # per package merged, in order
    merged_copy: list[dict] = field(default_factory=list)
    queue_lab: list[int] = field(default_factory=list)  # the adjudication queue's items
    queue_copy: list[int] = field(default_factory=list)
    gold_item: int | None = None
    gold_text: str = ""

    @property
    def ws(self):
        return self.window.workspace


def _panel(walk: Walk, name: str):
    return walk.window.panels[name]


def _plain(text: str) -> str:
    return text.replace("&", "")


def _menu(walk: Walk, menu: str, item: str) -> None:
    """A menu item by its English name, in the language the window is shown in."""
    from engine.i18n import _

    trigger(walk.window, _plain(_(menu)), _plain(_(item)))


def _tab(walk: Walk, title: str) -> None:
    """View → Show <panel>, in the window's language."""
    from engine.i18n import _

    _menu(walk, "&View", _("Show {panel}").format(panel=_(title)))
    settle(walk.app)


# -- the steps -----------------------------------------------------------------------------
def step_open_sample(walk: Walk) -> None:
    """01 Welcome page → "Open the sample workspace"; the Annotation tab's empty state."""
    shoot(walk, "01_welcome")
    click(walk.window.welcome.sample_button)
    wait_until(walk, lambda: walk.window.workspace is not None, 60, "sample workspace")
    walk.lab = walk.ws.path
    _tab(walk, "Annotation")
    if _panel(walk, "annotation").prompt.step != "annotators":
        raise WalkError("the empty Annotation tab does not offer to add annotators")
    shoot(walk, "02_annotation_empty")


def step_add_annotators(walk: Walk) -> None:
    """03 The empty state's "Add annotators…": two annotators with their dialects."""
    panel = _panel(walk, "annotation")
    click(panel.prompt.button)
    dialog = panel.setup.dialog
    for name, dialects in ANNOTATORS:
        click(dialog.new_button)
        type_into(dialog.name, name)
        tick(dialog.dialects, dialects)
        click(dialog.add_button)
        if dialog.status.styleSheet():
            raise WalkError(f"annotator {name} not added: {dialog.status.text()}")
    shoot(walk, "03_annotators", dialog)
    from PySide6.QtWidgets import QDialogButtonBox

    close = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close)
    click(close)
    settle(walk.app)


def step_assign(walk: Walk) -> None:
    """04 "Assign items…": a blind batch, half of each dialect's items shared, a fixed seed."""
    panel = _panel(walk, "annotation")
    click(panel.prompt.button)
    dialog = panel.setup.dialog
    type_into(dialog.name, BATCH)
    type_number(dialog.overlap, OVERLAP)
    check(dialog.random_seed, False)
    type_number(dialog.seed, SEED)
    check(dialog.blind)
    shoot(walk, "04_assign", dialog)
    click(dialog.buttons.button(dialog.buttons.StandardButton.Ok))
    settle(walk.app)
    if dialog.isVisible():
        raise WalkError(f"assignment refused: {dialog.status.text()}")
    shoot(walk, "05_annotation_queue")


def step_export_packages(walk: Walk) -> None:
    """06 File → Export review package…, once per annotator."""
    for name, _dialects in ANNOTATORS:
        out = walk.folder / f"{name}.upkg"
        walk.picks.append(str(out))
        before = walk.window.annotation.last_result
        with input_dialog_answers(walk, name):
            _menu(walk, "&File", "&Export review package…")
            wait_until(
                walk, lambda b=before: walk.window.annotation.last_result is not b, 30, "export"
            )
        if not out.exists():
            raise WalkError(f"no package written for {name}: {walk.window.annotation.last_result}")
        walk.packages[name] = out
    shoot(walk, "06_exported")


def _avro_edit(walk: Walk, panel, latin: str) -> str:
    """Switch Avro typing on and type ``latin`` into the edit field; Bengali appears."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    check(panel.avro_toggle)
    panel.text.setFocus()
    QTest.keyClick(panel.text, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(panel.text, Qt.Key.Key_Delete)
    QTest.keyClicks(panel.text, latin)
    typed = panel.text.toPlainText()
    if not typed or any(c.isascii() and c.isalpha() for c in typed):
        raise WalkError(f"Avro typing gave {typed!r} for {latin!r}")
    return typed


def _decide_all(walk: Walk, panel, name: str) -> None:
    """The first item edited with Avro, the second flagged (Karim) or scored 2 (Rina), the
    last rejected (Karim), the rest accepted with a score of 4."""
    for n in range(len(panel.items)):
        if panel.current is None or panel.current["mine"] is not None:
            raise WalkError(f"{name}: item {n} is not the next undecided one")
        if n == 0:
            _avro_edit(walk, panel, AVRO_EDITS[name])
            type_number(panel.score, 3)
            if name == "রিনা":
                shoot(walk, "07_package_avro", window=panel)
            click(panel.buttons["edit"])
        elif n == 1 and name == "Karim":
            type_into(panel.comment, "অস্পষ্ট")
            click(panel.buttons["flag"])
        elif n == len(panel.items) - 1 and name == "Karim":
            click(panel.buttons["reject"])
        else:
            type_number(panel.score, 2 if n == 1 else 4)
            click(panel.buttons["accept"])


def step_field_laptop(walk: Walk) -> None:
    """07–08 Close the workspace; the welcome page's "Open a review package…" on each
    package; every item decided, a revisited item showing its saved decision."""
    _menu(walk, "&File", "&Close workspace")
    settle(walk.app)
    if walk.window.workspace is not None:
        raise WalkError("the workspace did not close")
    # the lab's state as it was at export (closed, so SQLite's write-ahead log is in the
    # file), to merge the packages into in the other order
    walk.lab_copy = walk.folder / "lab copy.sqlite"
    shutil.copy(walk.lab, walk.lab_copy)
    for name, _dialects in ANNOTATORS:
        walk.picks.append(str(walk.packages[name]))
        click(walk.window.welcome.package_button)
        settle(walk.app)
        panel = walk.window.annotation.last_result
        if panel is None or not panel.isVisible():
            raise WalkError(f"the package of {name} did not open")
        panel.resize(*WINDOW_SIZE)
        walk.package_panels[name] = panel
        _decide_all(walk, panel, name)
        if panel.progress.value() != panel.progress.maximum():
            raise WalkError(f"{name}: not every item decided")
    panel = walk.package_panels[ANNOTATORS[0][0]]
    panel.list.setCurrentRow(0)  # back to the first (edited) item
    shoot(walk, "08_package_revisited", window=panel)
    for panel in walk.package_panels.values():
        panel.close()


def _merge(walk: Walk, workspace: Path, order: list[str]) -> list[dict]:
    walk.picks.append(str(workspace))
    _menu(walk, "&File", "&Open workspace…")
    wait_until(walk, lambda: walk.ws is not None and walk.ws.path == workspace, 30, "open")
    merged = []
    for name in order:
        walk.picks.append(str(walk.packages[name]))
        before = walk.window.annotation.last_result
        _menu(walk, "&File", "&Import review packages…")
        wait_until(walk, lambda b=before: walk.window.annotation.last_result is not b, 30, "merge")
        if not isinstance(walk.window.annotation.last_result, list):
            raise WalkError(f"{name}'s package not merged: {walk.window.annotation.last_result}")
        merged += walk.window.annotation.last_result
    return merged


def step_merge_both_orders(walk: Walk) -> None:
    """09 File → Import review packages…: into the copy in one order, into the lab in the
    other; both give the same adjudication queue."""
    names = [name for name, _d in ANNOTATORS]
    walk.merged_copy = _merge(walk, walk.lab_copy, list(reversed(names)))
    _tab(walk, "Adjudication")
    walk.queue_copy = [e["item_id"] for e in _panel(walk, "adjudication").entries]
    walk.merged_lab = _merge(walk, walk.lab, names)
    _tab(walk, "Adjudication")
    walk.queue_lab = [e["item_id"] for e in _panel(walk, "adjudication").entries]
    if walk.queue_lab != walk.queue_copy or not walk.queue_lab:
        raise WalkError(f"the merge order changed the queue: {walk.queue_lab} {walk.queue_copy}")
    shoot(walk, "09_adjudication_queue")


def step_adjudicate(walk: Walk) -> None:
    """10 Adjudication: the edits side by side as grapheme-cluster diffs; one made gold."""
    panel = _panel(walk, "adjudication")
    edited = next((i for i, e in enumerate(panel.entries) if "edits differ" in e["reasons"]), None)
    if edited is None:
        raise WalkError("no item with differing edits to adjudicate")
    panel.list.setCurrentRow(edited)
    settle(walk.app)
    walk.gold_item = panel.detail["id"]
    walk.gold_text = panel.text.toPlainText()
    type_into(panel.adjudicator, ADJUDICATOR)
    shoot(walk, "10_adjudicate")
    type_into(panel.comment, "রিনার রূপটি স্বাভাবিক")
    click(panel.buttons["edit"])
    settle(walk.app)
    if walk.gold_item in [e["item_id"] for e in panel.entries]:
        raise WalkError("the adjudicated item is still in the queue")


def step_agreement(walk: Walk) -> None:
    """11 Agreement, opened: α, κ with bootstrap intervals, and each annotator's progress,
    computed without pressing Compute."""
    _tab(walk, "Agreement")
    panel = _panel(walk, "agreement")
    wait_until(
        walk, lambda: panel.report is not None and panel.compute_button.isEnabled(), 60, "agreement"
    )
    shoot(walk, "11_agreement")


STEPS = [
    step_open_sample,
    step_add_annotators,
    step_assign,
    step_export_packages,
    step_field_laptop,
    step_merge_both_orders,
    step_adjudicate,
    step_agreement,
]


# -- start and run -------------------------------------------------------------------------
def start(out: Path, folder: Path) -> Walk:
    """Fresh config and data folders (the sample workspace is built there), the window."""
    folder.mkdir(parents=True, exist_ok=True)
    os.environ["UPABHASHA_CONFIG_DIR"] = str(folder / "config")
    os.environ["UPABHASHA_DATA_DIR"] = str(folder / "data")
    out.mkdir(parents=True, exist_ok=True)
    app, window = open_main_window(WINDOW_SIZE)
    walk = Walk(app=app, window=window, out=out, folder=folder)
    watch_message_boxes(walk)
    return walk


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "out",
        nargs="?",
        default=str(REPO / "docs" / "annotation_walkthrough"),
        help="folder for the PNGs (default docs/annotation_walkthrough, …/bn in Bengali)",
    )
    parser.add_argument("--language", choices=("en", "bn"), default="en")
    args = parser.parse_args(argv)
    if args.language == "bn":
        from app.language_menu import apply_language

        apply_language("bn")  # before the window is built
        if args.out == parser.get_default("out"):
            args.out = str(Path(args.out) / "bn")
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    began = time.perf_counter()
    walk = start(Path(args.out), Path(tempfile.mkdtemp(prefix="upabhasha-annotation-walk-")))
    return walk_all(walk, STEPS, began)


if __name__ == "__main__":
    sys.exit(main())
