"""Translation widgets: the translate dialog, the review grid and the metrics panel
(engine.translation)."""
