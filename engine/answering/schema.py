"""The answering stage's declarations, pure data (what each name means:
engine.workspace.stages). Answers are responses of runs (engine.llm's tables): the stage has
no tables of its own."""

REQUESTS = {"generate": "engine.answering.request:GenerateRequest"}
