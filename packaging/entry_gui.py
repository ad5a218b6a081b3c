"""Frozen entry point of ``upabhasha-gui`` (PyInstaller runs this file as __main__)."""

import multiprocessing
import sys

if __name__ == "__main__":
    # the model worker is a 'spawn' child: in a frozen program it re-runs this executable,
    # and freeze_support() turns that run into the worker instead of a second window
    multiprocessing.freeze_support()
    from app.gui_main import main

    sys.exit(main())
