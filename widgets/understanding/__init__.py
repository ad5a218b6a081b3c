"""The tasks panel and its failure bars (engine.understanding)."""
