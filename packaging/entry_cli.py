"""Frozen entry point of the ``upabhasha`` command line (PyInstaller runs it as __main__).

``upabhasha --smoke-test`` runs the GUI program's smoke test from this console program:
on Windows the windowed ``upabhasha-gui.exe`` has no stdout to print its report to.
"""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()  # the model worker re-runs this executable
    if sys.argv[1:2] == ["--smoke-test"]:
        from app.gui_main import main as gui_main

        sys.exit(gui_main(sys.argv[1:]))
    from app.cli import main

    sys.exit(main())
