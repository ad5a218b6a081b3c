"""Errors a user can act on. The CLI prints them as one line and exits 2 (a
:class:`StepIncomplete`: 3, with how to resume); anything else is an internal error (exit 1,
details in the log file)."""


class UserError(Exception):
    """A problem with the user's input or environment, stated so they can fix it."""


class StepIncomplete(UserError):
    """A step stopped before its items were done for a reason that may pass (a model that
    did not load, a worker that died): what finished is saved and running the same command
    again resumes. Not a mistake in the user's input, so never exit 2."""


class ImportRejected(UserError):
    """A file was refused; the message names file, line and column where known."""

    def __init__(self, path, message: str, line: int | None = None, column: str | None = None):
        where = str(path)
        if line is not None:
            where += f", line {line}"
        if column:
            where += f", column '{column}'"
        super().__init__(f"{where}: {message}")
        self.path, self.line, self.column, self.reason = path, line, column, message
