"""Errors of the rule language (NE-21.10): a stable code, a message, a line and a column."""

from __future__ import annotations

ERROR_CODES: tuple[str, ...] = (
    "syntax",
    "unknown_name",
    "duplicate_name",
    "type",
    "scope",
    "nested_aggregate",
    "too_long",
    "too_big",
    "too_deep",
    "bad_modulus",
    "incomplete_case",
    "missing_accept",
    "too_slow",
)

Pos = tuple[int, int]
"""(line, column), both counted from 1, columns in characters of the NFC source."""


class ErlError(Exception):
    """A rule the language refuses. ``code`` is one of :data:`ERROR_CODES`."""

    def __init__(self, code: str, message: str, pos: Pos) -> None:
        assert code in ERROR_CODES, code
        self.code = code
        self.message = message
        self.line, self.column = pos
        super().__init__(f"{self.line}:{self.column}: {message}")

    def __repr__(self) -> str:
        return f"ErlError({self.code!r}, {self.line}:{self.column}, {self.message!r})"

    def to_json(self) -> dict[str, str | int]:
        """What the dealer's editor receives."""
        return {
            "code": self.code,
            "line": self.line,
            "column": self.column,
            "message": self.message,
        }
