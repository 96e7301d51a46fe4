"""ERL tokens (NE-21.2).

The source is NFC-normalised first and may hold at most 2,000 characters (``too_long``).
Names are a letter (any Unicode letter) or ``_``, then letters, ASCII digits and ``_``;
integers are ASCII digits (Our ruling OR03: a literal above 1,000,000 is ``too_big``).
"""

from __future__ import annotations

import unicodedata
from typing import NamedTuple

from engine.eleusis.erl.errors import ErlError, Pos
from engine.eleusis.faces import SUIT_SYMBOLS

MAX_SOURCE = 2000
MAX_INT = 1_000_000

KEYWORDS = frozenset(
    {
        *("let", "state", "start", "accept", "if", "then", "else", "case", "of", "end"),
        *("and", "or", "xor", "not", "implies", "in", "mod", "true", "false"),
    }
)
SUIT_WORDS = frozenset({"clubs", "diamonds", "hearts", "spades"})
COLOR_WORDS = frozenset({"red", "black"})
OPERATORS = (
    "==",
    "!=",
    "<=",
    ">=",
    "..",
    "->",
    "<",
    ">",
    "+",
    "-",
    "*",
    ".",
    ",",
    "(",
    ")",
    "{",
    "}",
    "|",
    ";",
    "=",
)


class Token(NamedTuple):
    kind: str  # "name", "int", "kw", "suit", "color", "op", "eof"
    text: str  # the normalised spelling (a suit symbol becomes its word)
    pos: Pos


def normalise(source: str) -> str:
    """The NFC form the language reads, and the commitment binds (NE-21.2, NE-23.1)."""
    return unicodedata.normalize("NFC", source)


def _is_name_start(ch: str) -> bool:
    return ch == "_" or ch.isalpha()


def _is_name_char(ch: str) -> bool:
    return ch == "_" or ch.isalpha() or ch in "0123456789"


def tokenize(source: str) -> list[Token]:
    """The tokens of an NFC source; raises :class:`ErlError` (``syntax``, ``too_long``,
    ``too_big``)."""
    if len(source) > MAX_SOURCE:
        line = source.count("\n", 0, MAX_SOURCE) + 1
        column = MAX_SOURCE - (source.rfind("\n", 0, MAX_SOURCE) + 1) + 1
        raise ErlError(
            "too_long",
            f"The rule is {len(source)} characters long; at most {MAX_SOURCE} are allowed.",
            (line, column),
        )
    tokens: list[Token] = []
    i, line, line_start, n = 0, 1, 0, len(source)
    while i < n:
        ch = source[i]
        pos = (line, i - line_start + 1)
        if ch == "\n":
            i += 1
            line, line_start = line + 1, i
        elif ch.isspace():
            i += 1
        elif ch == "#":
            while i < n and source[i] != "\n":
                i += 1
        elif ch in "0123456789":
            j = i
            while j < n and source[j] in "0123456789":
                j += 1
            text = source[i:j]
            if len(text.lstrip("0")) > 7 or int(text) > MAX_INT:
                raise ErlError(
                    "too_big", f"The number {text[:12]} is too big (at most {MAX_INT:,}).", pos
                )
            if j < n and _is_name_char(source[j]) and source[j] not in "0123456789":
                raise ErlError(
                    "syntax", f"A name cannot start with a digit: {source[i : j + 1]!r}.", pos
                )
            tokens.append(Token("int", str(int(text)), pos))
            i = j
        elif _is_name_start(ch):
            j = i
            while j < n and _is_name_char(source[j]):
                j += 1
            word = source[i:j]
            kind = (
                "kw"
                if word in KEYWORDS
                else "suit"
                if word in SUIT_WORDS
                else "color"
                if word in COLOR_WORDS
                else "name"
            )
            tokens.append(Token(kind, word, pos))
            i = j
        elif ch in SUIT_SYMBOLS:
            tokens.append(Token("suit", SUIT_SYMBOLS[ch], pos))
            i += 1
        else:
            for op in OPERATORS:
                if source.startswith(op, i):
                    tokens.append(Token("op", op, pos))
                    i += len(op)
                    break
            else:
                raise ErlError("syntax", f"Unexpected character {ch!r}.", pos)
    tokens.append(Token("eof", "", (line, n - line_start + 1)))
    return tokens
