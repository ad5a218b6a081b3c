"""A small fourth study, field notes, that lives in tests/ only: it proves the recipe for a new
study (docs/design.md, "A study stage is one unit"): its own folder, plus one entry in each
stage list and its catalogue entries, made for a test by ``recipe.register`` — no product
file names it (tests/app/test_study_recipe.py).

- tests/fourth_study/schema.py   its declarations: its table on its own migration track, its
                                 change topic, its model step and its report section
- tests/fourth_study/notes.py    its engine code: add a note, count them, import a file
- tests/fourth_study/request.py  its model step as a request, run by the one runner
- tests/fourth_study/report.py   its section of the HTML report
- tests/fourth_study/api.py      its front door
- tests/fourth_study/cli.py      its commands (``notes``, ``gist-notes``) and smoke-test step
- tests/fourth_study/widgets.py  its panel, its import page and its Study-menu dialog
- tests/fourth_study/bn.json     its messages in Bengali (a product study's are in the
                                 catalogue)
- tests/fourth_study/recipe.py   its registration: the two stage-list entries and the
                                 catalogue entries
"""
