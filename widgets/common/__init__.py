"""Widgets every stage shares: the task bridge, the workspace watcher, the job monitor, the
stand-alone panel runner, fonts, Avro typing, the welcome page and small dialog parts."""
