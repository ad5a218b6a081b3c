"""A small fourth study, field notes, that lives in tests/ only: it proves the recipe for a new
study (docs/design.md, "A study stage is one unit"): its own folder, plus one entry in each
stage list and its catalogue entries, made for a test by ``recipe.register`` — no product
file names it (tests/app/test_study_recipe.py).

- schema.py   its declarations: its table on its own migration track, its change topic, its
              model step (``gist-notes``) and its report section
- notes.py    its engine code: add a note, count them, import a file of notes
- request.py  its model step as a request (:class:`GistRequest`), run by the one runner
- report.py   its section of the HTML report
- api.py      its front door
- cli.py      its commands, ``upabhasha notes`` and ``upabhasha gist-notes``, and its
              smoke-test step
- widgets.py  its panel, its import page and its Study-menu dialog
- bn.json     its messages in Bengali (a product study puts them in the catalogue)
- recipe.py   the registration: the two stage-list entries and the catalogue entries
"""
