"""Frozen entry point of the ``upabhasha`` command line (PyInstaller runs it as __main__).

``upabhasha --smoke-test`` runs the GUI program's smoke test from this console program:
on Windows the windowed ``upabhasha-gui.exe`` has no stdout to print its report to. On Linux
the bundle has this one executable, and ``upabhasha-gui`` is a link to it: called by that
name, it starts the window. ``upabhasha --modules-at-start`` prints (JSON) the modules the
runtime hooks and the bootloader loaded before this script, and exits: packaging/build.py
and bench/frozen_start.py check that nothing heavy is among them.
"""

import sys

if __name__ == "__main__":
    if sys.argv[1:2] == ["--modules-at-start"]:
        loaded = sorted(sys.modules)
        import json

        print(json.dumps(loaded))
        sys.exit(0)
    import multiprocessing
    import os

    multiprocessing.freeze_support()  # the model worker re-runs this executable
    called_as_gui = os.path.basename(sys.argv[0]).startswith("upabhasha-gui")
    if called_as_gui or sys.argv[1:2] == ["--smoke-test"]:
        from app.gui_main import main as gui_main

        sys.exit(gui_main(sys.argv[1:]))
    from app.cli import main

    sys.exit(main())
