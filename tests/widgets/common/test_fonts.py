"""The shipped Bengali font registers with Qt and matplotlib from package resources."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QFontMetrics, QGuiApplication

from widgets.common import fonts

BENGALI_SAMPLE = "ক্ষ্মী কৌতূহল স্ত্রী"  # conjuncts and split (pre/post-base) vowel signs


def test_font_files_and_licence_ship_as_resources():
    paths = fonts.font_paths()
    assert [p.name for p in paths] == list(fonts.FONT_FILES)
    assert all(p.stat().st_size > 100_000 for p in paths)
    licence = Path(paths[0]).parent / "OFL.txt"
    assert "SIL Open Font License" in licence.read_text(encoding="utf-8")


def test_qt_registration_adds_bengali_to_the_ui_font(qapp):
    families = fonts.register_qt_fonts(qapp)
    assert fonts.BENGALI_FAMILY in families
    assert fonts.BENGALI_FAMILY in QGuiApplication.font().families()
    metrics = QFontMetrics(fonts.bengali_font())
    assert all(metrics.inFontUcs4(ord(c)) for c in BENGALI_SAMPLE if not c.isspace())


def test_matplotlib_gets_the_bundled_font_with_a_latin_fallback():
    import matplotlib
    from matplotlib import font_manager

    fonts.register_matplotlib_fonts()
    assert matplotlib.rcParams["font.family"][:2] == ["Noto Sans Bengali", "DejaVu Sans"]
    bundled = {str(p) for p in fonts.font_paths()}
    assert bundled <= {f.fname for f in font_manager.fontManager.ttflist}


def test_matplotlib_renders_bengali_without_missing_glyph_warnings(tmp_path, recwarn):
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    fonts.register_matplotlib_fonts()
    fig = Figure(figsize=(3, 1))
    fig.text(0.05, 0.4, BENGALI_SAMPLE + " Sylhet সিলেট")
    fig.savefig(tmp_path / "bengali.png")
    assert not [
        w
        for w in recwarn
        if "missing from" in str(w.message).lower() or "glyph" in str(w.message).lower()
    ]
