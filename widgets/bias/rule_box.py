"""RuleBox: the Social bias panel's choice of zero-count rule, and with it the settings its
statistics are computed with — ``upabhasha bias-stats``'s defaults (engine.bias.api), the
chosen rule replacing theirs."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QWidget

from engine.bias.api import BIAS_STATS, ZERO_RULES, BiasStatsSettings
from engine.i18n import _


class RuleBox(QComboBox):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        names = {"limit": _("zero count: limit ±1"), "haldane": _("zero count: add ½ (Haldane)")}
        for rule in ZERO_RULES:
            self.addItem(names[rule], rule)
        self.setCurrentIndex(self.findData(BIAS_STATS.zero_rule))

    def settings(self) -> BiasStatsSettings:
        """How the statistics are computed: the defaults, with the rule chosen here."""
        return BiasStatsSettings.given(zero_rule=self.currentData())
