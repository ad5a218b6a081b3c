"""A small fourth study, field notes, that lives in tests/ only: it proves that a study stage
registers itself by its own declarations plus one entry in each stage list
(tests/widgets/test_fourth_study.py), with no product file edited.

- schema.py   its table on its own migration track, and its change topic
- notes.py    its engine code: add a note, count them, import a text file of notes
- cli.py      its command, ``upabhasha notes``
- widgets.py  its panel and its import page
"""
