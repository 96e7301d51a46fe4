"""The error a broken Pax Illuminaten data file raises when loaded."""

from __future__ import annotations


class PaxDataError(ValueError):
    """A data file is invalid: ``file``, the ``item`` concerned (or None) and the ``problem``."""

    def __init__(self, file: str, item: str | None, problem: str) -> None:
        where = file if item is None else f"{file}: {item}"
        super().__init__(f"{where}: {problem}")
        self.file = file
        self.item = item
        self.problem = problem
