"""The judge-validity stage: how far one judge run's verdicts can be trusted, per dialect."""
