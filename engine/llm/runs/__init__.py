"""Runs and their jobs: a run's key and card (``run.py``) and the one writer
of ``runs`` (``writes.py``), leases, the job runner, the response writer and cache, the
backend a run decodes with, estimates before a run, the per-model run loop, replication,
and the step requests every front end builds."""
