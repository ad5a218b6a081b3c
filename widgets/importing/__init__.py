"""The import dialog (engine.importing)."""
