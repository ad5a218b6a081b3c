"""A small fourth study, field notes, that lives in tests/ only: it proves that a study stage
registers itself by its own declarations plus one entry in each stage list
(tests/widgets/test_fourth_study.py), with no product file edited.

- tests/fourth_study/schema.py   its table on its own migration track, and its change topic
- tests/fourth_study/notes.py    its engine code: add a note, count them, import a file of notes
- tests/fourth_study/cli.py      its command, ``upabhasha notes``
- tests/fourth_study/widgets.py  its panel and its import page
"""
