"""The charts panel and its renderer (engine.reports)."""
