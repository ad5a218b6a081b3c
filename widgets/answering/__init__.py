"""The generate dialog (engine.answering)."""
