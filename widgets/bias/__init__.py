"""The bias panel, its chart and normalisation editor (engine.bias)."""
