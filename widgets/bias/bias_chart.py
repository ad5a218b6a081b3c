"""BiasChart: diverging horizontal bars of bias scores, one run, like paper 002's figures.

Positive and negative traits in separate blocks (occupation-only probes in a third), the
neutral line at 0, a bar per category (with and without occupation mixed in) from 0 to its
score, the bootstrap CI as whiskers, n at the bar and the refusal / both-neither /
unparseable rates in the right margin. A score that cannot be computed says why instead of
drawing a bar. One paint routine serves the screen and the PNG, SVG and PDF exports.
"""

from __future__ import annotations

from PySide6.QtCore import QMarginsF, QPointF, QRectF, QSize, QSizeF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPageSize, QPainter, QPdfWriter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from engine.i18n import _, digits
from widgets.common.fonts import bengali_font
from widgets.common.labels import label as code_label

X_COLOR = QColor("#d95f02")  # toward group x
Y_COLOR = QColor("#1b9e77")  # toward group y
ROW_H = 26
HEAD_H = 22
SECTIONS = (("positive", "Positive traits"), ("negative", "Negative traits"), ("", "No trait"))


def chart_rows(groups: list[dict]) -> list[tuple[str, list[dict]]]:
    """(section title, rows) in display order."""
    out = []
    for key, title in SECTIONS:
        rows = [g for g in groups if g["subcategory"] == key]
        rows.sort(key=lambda g: (g["category"], g["occupation_mixed"], g.get("run_id", 0)))
        if rows:
            out.append((_(title), rows))
    return out


def chart_height(groups: list[dict]) -> int:
    sections = chart_rows(groups)
    return 70 + sum(HEAD_H + ROW_H * len(rows) for _t, rows in sections) + 40


def paint_chart(p: QPainter, rect: QRectF, title: str, groups: list[dict], xy: tuple[str, str]):
    p.save()
    p.fillRect(rect, Qt.GlobalColor.white)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    font = bengali_font(9)
    p.setFont(font)
    left, right = rect.left() + 230, rect.right() - 230
    width = max(right - left, 60)

    def x_of(v: float) -> float:
        return left + (max(-1.0, min(1.0, v)) + 1) / 2 * width

    bold = QFont(font)
    bold.setBold(True)
    p.setFont(bold)
    p.drawText(
        QRectF(rect.left() + 8, rect.top() + 4, rect.width() - 16, 20),
        Qt.AlignmentFlag.AlignLeft,
        title,
    )
    p.setFont(font)
    sections = chart_rows(groups)
    top = rect.top() + 34
    bottom = top + sum(HEAD_H + ROW_H * len(r) for _t, r in sections)
    if not sections:
        p.drawText(rect, Qt.AlignmentFlag.AlignCenter, _("No replies yet"))
        p.restore()
        return
    # grid, neutral line
    for tick in (-1.0, -0.5, 0.0, 0.5, 1.0):
        pen = QPen(QColor("#222") if tick == 0 else QColor("#ddd"), 1.6 if tick == 0 else 1)
        p.setPen(pen)
        p.drawLine(QPointF(x_of(tick), top), QPointF(x_of(tick), bottom))
        p.setPen(QColor("#444"))
        p.drawText(
            QRectF(x_of(tick) - 20, bottom + 2, 40, 16),
            Qt.AlignmentFlag.AlignCenter,
            digits(f"{tick:+.1f}" if tick else "0"),
        )
    p.drawText(
        QRectF(left, bottom + 18, width / 2, 16),
        Qt.AlignmentFlag.AlignLeft,
        "← " + _("toward {group}").format(group=code_label("group", xy[1])),
    )
    p.drawText(
        QRectF(left + width / 2, bottom + 18, width / 2, 16),
        Qt.AlignmentFlag.AlignRight,
        _("toward {group}").format(group=code_label("group", xy[0])) + " →",
    )
    p.drawText(
        QRectF(right + 10, top - 18, 220, 16),
        Qt.AlignmentFlag.AlignLeft,
        _("refusal · neutral · unparseable"),
    )
    y = top
    for section, rows in sections:
        p.setFont(bold)
        p.setPen(QColor("#333"))
        p.drawText(QRectF(rect.left() + 8, y, 220, HEAD_H), Qt.AlignmentFlag.AlignVCenter, section)
        p.setFont(font)
        y += HEAD_H
        for g in rows:
            _paint_row(p, rect, y, g, x_of)
            y += ROW_H
    p.restore()


def _paint_row(p: QPainter, rect: QRectF, y: float, g: dict, x_of) -> None:
    # a row of both kinds of probe ("Occupation Based+Communal Based") names each kind
    names = [code_label("category", c.strip()) for c in g["category"].split("+") if c.strip()]
    label = " + ".join(names) or _("(uncategorised)")
    if g["occupation_mixed"]:
        label += " + " + _("occupation")
    if g.get("compare"):  # several runs in one chart: say whose bar it is
        label += " · " + _("run {id}").format(id=g["run_id"])  # the info line names the model
    label = QFontMetrics(p.font()).elidedText(label, Qt.TextElideMode.ElideMiddle, 206)
    p.setPen(QColor("#222"))
    p.drawText(
        QRectF(rect.left() + 16, y, 210, ROW_H),
        Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
        label,
    )
    mid = y + ROW_H / 2
    score = g["score"]
    if score is None:
        p.setPen(QColor("#888"))
        p.drawText(
            QRectF(x_of(-1), y, x_of(1) - x_of(-1), ROW_H),
            Qt.AlignmentFlag.AlignCenter,
            _("no group answers (n = {n})").format(n=g["n"]),
        )
    else:
        color = X_COLOR if score > 0 else Y_COLOR
        x0, x1 = sorted((x_of(0), x_of(score)))
        p.fillRect(QRectF(x0, mid - 7, max(x1 - x0, 1.5), 14), color)
        if g["ci_low"] is not None and g["ci_high"] is not None:
            lo, hi = x_of(g["ci_low"]), x_of(g["ci_high"])
            p.setPen(QPen(QColor("#111"), 1.2))
            p.drawLine(QPointF(lo, mid), QPointF(hi, mid))
            p.drawLine(QPointF(lo, mid - 5), QPointF(lo, mid + 5))
            p.drawLine(QPointF(hi, mid - 5), QPointF(hi, mid + 5))
        text = _("n={n}").format(n=g["n"]) + (" *" if g["zero_count"] else "")
        # beyond the bar's end when there is room, else inside its end in white
        outside = abs(score) < 0.8
        p.setPen(QColor("#333") if outside else Qt.GlobalColor.white)
        to_right = (score >= 0) == outside
        box = QRectF(x_of(score) + 4 if to_right else x_of(score) - 74, y, 70, ROW_H)
        if not outside:
            box = QRectF(x_of(score) - 74 if score > 0 else x_of(score) + 4, y, 70, ROW_H)
        align = (
            Qt.AlignmentFlag.AlignRight if score > 0 and not outside else Qt.AlignmentFlag.AlignLeft
        )
        if score < 0 and outside:
            align = Qt.AlignmentFlag.AlignRight
        if outside:  # keep the label readable where the CI whisker crosses it
            bound = p.boundingRect(box, Qt.AlignmentFlag.AlignVCenter | align, text)
            p.fillRect(bound.adjusted(-2, 2, 2, -2), Qt.GlobalColor.white)
        p.drawText(box, Qt.AlignmentFlag.AlignVCenter | align, text)
    rates = " · ".join(
        "-" if g[k] is None else digits(f"{100 * g[k]:.0f}%")
        for k in ("refusal_rate", "neutral_rate", "unparseable_rate")
    )
    p.setPen(QColor("#555"))
    p.drawText(QRectF(rect.right() - 220, y, 220, ROW_H), Qt.AlignmentFlag.AlignVCenter, rates)


class BiasChart(QWidget):
    """The chart on screen; a click on a bar row emits the row's group."""

    sig_group_clicked = Signal(dict)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.title = ""
        self.groups: list[dict] = []
        self.xy = ("x", "y")
        self.setMinimumSize(640, 200)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def set_data(self, title: str, groups: list[dict], xy: tuple[str, str]) -> None:
        self.title, self.groups, self.xy = title, groups, xy
        self.setMinimumHeight(chart_height(groups))
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(1000, max(300, chart_height(self.groups)))

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        paint_chart(p, QRectF(self.rect()), self.title, self.groups, self.xy)
        p.end()

    def mousePressEvent(self, event) -> None:
        y = self.rect().top() + 34
        pos = event.position().y()
        for _section, rows in chart_rows(self.groups):
            y += HEAD_H
            for g in rows:
                if y <= pos < y + ROW_H:
                    self.sig_group_clicked.emit(g)
                    return
                y += ROW_H

    # -- exports ---------------------------------------------------------------------------
    def export(self, path: str) -> None:
        """PNG, SVG or PDF by the file's suffix."""
        size = QSizeF(1000, chart_height(self.groups))
        suffix = path.rsplit(".", 1)[-1].lower()
        if suffix == "png":
            image = QImage(
                int(size.width()) * 2, int(size.height()) * 2, QImage.Format.Format_ARGB32
            )
            image.setDevicePixelRatio(2)
            p = QPainter(image)
            paint_chart(
                p, QRectF(0, 0, size.width(), size.height()), self.title, self.groups, self.xy
            )
            p.end()
            if not image.save(path):
                raise OSError(f"cannot write {path}")
        elif suffix == "svg":
            from PySide6.QtSvg import QSvgGenerator

            gen = QSvgGenerator()
            gen.setFileName(path)
            gen.setSize(size.toSize())
            gen.setViewBox(QRectF(0, 0, size.width(), size.height()))
            gen.setTitle(self.title)
            p = QPainter(gen)
            paint_chart(
                p, QRectF(0, 0, size.width(), size.height()), self.title, self.groups, self.xy
            )
            p.end()
        elif suffix == "pdf":
            writer = QPdfWriter(path)
            writer.setPageSize(QPageSize(size * 0.75, QPageSize.Unit.Point))
            writer.setPageMargins(QMarginsF(0, 0, 0, 0))
            writer.setResolution(96)
            p = QPainter(writer)
            paint_chart(
                p, QRectF(0, 0, size.width(), size.height()), self.title, self.groups, self.xy
            )
            p.end()
        else:
            raise ValueError(f"unknown image format '{suffix}' (png, svg or pdf)")
