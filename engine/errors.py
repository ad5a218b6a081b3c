"""Errors a user can act on. The CLI prints them as one line and exits 2; anything else
is an internal error (exit 1, details in the log file)."""


class UserError(Exception):
    """A problem with the user's input or environment, stated so they can fix it."""


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
