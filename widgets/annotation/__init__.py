"""Human annotation widgets: the annotation, adjudication and agreement panels
(engine.annotation)."""
