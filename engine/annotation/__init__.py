"""Field annotation: annotators, assignment, blind decisions, adjudication, agreement, packages."""
