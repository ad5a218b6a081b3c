"""A model step as batch files and back: export and import (``runner.py``),
what the workspace keeps of each batch (``store.py``), and what a job costs."""
