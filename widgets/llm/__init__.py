"""The models panel (engine.llm)."""
