"""Dialect understanding tasks (paper 001): tasks as data, items, regimes, scripts, metrics."""
