"""The model steps of every study as requests, and batch files of them (engine.steps.api)."""
