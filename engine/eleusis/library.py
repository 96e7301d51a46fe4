"""The library of ready rules (NE-25), read from ``data/library.json`` and validated.

:func:`load_library` validates a library document and raises :class:`LibraryError`
naming the exact place of the first problem (``rules[3].title.ja: ...``). Every rule
must compile, have the lookback the file states, and its example main line must be right
under it (starters by the start condition, then card by card) with the wrong card wrong.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from engine.eleusis.erl import ErlError, Rule, compile_rule
from engine.eleusis.faces import FACE_INDEX

LIBRARY_FORMAT = "eleusis-library-1"
LANGUAGES = ("en", "ja")
DIFFICULTIES = range(1, 6)
VERDICTS = ("ok", "warn")


class LibraryError(ValueError):
    """A library document that does not validate; ``where`` is the path of the problem."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where


@dataclass(frozen=True)
class LibraryRule:
    id: str
    key: str
    difficulty: int
    title: dict[str, str]
    description: dict[str, str]
    source: str
    example: tuple[str, ...]
    wrong_after: int
    wrong_card: str
    verdict: str
    right_percent: int
    lookback: int
    origin: str

    def rule(self) -> Rule:
        return compile_rule(self.source)


def _get(obj: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(obj, dict):
        raise LibraryError(where, "expected an object")
    if key not in obj:
        raise LibraryError(f"{where}.{key}", "missing")
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise LibraryError(f"{where}.{key}", f"expected {names}, not {type(value).__name__}")
    return value


def _texts(obj: Any, key: str, where: str) -> dict[str, str]:
    texts = _get(obj, key, dict, where)
    out = {}
    for lang in LANGUAGES:
        text = _get(texts, lang, str, f"{where}.{key}")
        if not text.strip():
            raise LibraryError(f"{where}.{key}.{lang}", "empty")
        out[lang] = text
    return out


def _face(value: Any, where: str) -> str:
    if not isinstance(value, str) or value not in FACE_INDEX:
        raise LibraryError(where, f"{value!r} is not a face id (e.g. 'QH', '10S')")
    return value


def _rule(item: Any, where: str) -> LibraryRule:
    rid = _get(item, "id", str, where)
    difficulty = _get(item, "difficulty", int, where)
    if difficulty not in DIFFICULTIES:
        raise LibraryError(f"{where}.difficulty", f"must be 1 to 5, not {difficulty}")
    source = _get(item, "source", str, where)
    try:
        rule = compile_rule(source)
    except ErlError as err:
        raise LibraryError(f"{where}.source", f"{rid} does not compile: {err}") from err
    example = _get(item, "example", dict, where)
    line = _get(example, "main_line", list, f"{where}.example")
    faces = [_face(f, f"{where}.example.main_line[{i}]") for i, f in enumerate(line)]
    wrong = _get(example, "wrong", dict, f"{where}.example")
    after = _get(wrong, "after", int, f"{where}.example.wrong")
    card = _face(wrong.get("card"), f"{where}.example.wrong.card")
    if not rule.starters_needed <= after <= len(faces):
        raise LibraryError(f"{where}.example.wrong.after", f"out of range: {after}")
    check = _get(item, "check", dict, where)
    verdict = _get(check, "verdict", str, f"{where}.check")
    if verdict not in VERDICTS:
        raise LibraryError(f"{where}.check.verdict", f"must be ok or warn, not {verdict!r}")
    percent = _get(check, "right_percent", int, f"{where}.check")
    lookback = _get(check, "lookback", int, f"{where}.check")
    if lookback != rule.lookback:
        raise LibraryError(
            f"{where}.check.lookback", f"{lookback}, but the rule's is {rule.lookback}"
        )
    entry = LibraryRule(
        id=rid,
        key=_get(item, "key", str, where),
        difficulty=difficulty,
        title=_texts(item, "title", where),
        description=_texts(item, "description", where),
        source=source,
        example=tuple(faces),
        wrong_after=after,
        wrong_card=card,
        verdict=verdict,
        right_percent=percent,
        lookback=lookback,
        origin=_get(item, "origin", str, where),
    )
    problem = example_problem(entry, rule)
    if problem:
        raise LibraryError(f"{where}.example", problem)
    return entry


def example_problem(entry: LibraryRule, rule: Rule) -> str | None:
    """Why the example of a library rule does not fit the rule, or None."""
    line = rule.empty()
    for i, face_id in enumerate(entry.example):
        face = FACE_INDEX[face_id]
        starter = i < rule.starters_needed
        ok = rule.may_start(line, face) if starter else rule.judge(line, face)
        if not ok:
            what = "starter card" if starter else "card"
            return f"{entry.id}: {what} {i} ({face_id}) is wrong under the rule"
        line = rule.extend(line, face)
    prefix = rule.line_of(FACE_INDEX[f] for f in entry.example[: entry.wrong_after])
    if rule.judge(prefix, FACE_INDEX[entry.wrong_card]):
        card, after = entry.wrong_card, entry.wrong_after
        return f"{entry.id}: the wrong card {card} is right after {after} cards"
    return None


def load_library(text: str) -> tuple[LibraryRule, ...]:
    """The rules of a library document (JSON text); raises :class:`LibraryError`."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as err:
        raise LibraryError("library", f"not JSON: {err}") from err
    fmt = _get(doc, "format", str, "library")
    if fmt != LIBRARY_FORMAT:
        raise LibraryError("library.format", f"expected {LIBRARY_FORMAT!r}, not {fmt!r}")
    items = _get(doc, "rules", list, "library")
    rules = tuple(_rule(item, f"rules[{i}]") for i, item in enumerate(items))
    for attr in ("id", "key"):
        seen: set[str] = set()
        for i, entry in enumerate(rules):
            value = getattr(entry, attr)
            if value in seen:
                raise LibraryError(f"rules[{i}].{attr}", f"duplicate {value!r}")
            seen.add(value)
    return rules


@functools.cache
def library() -> tuple[LibraryRule, ...]:
    """The validated library shipped with the engine (package data, read once)."""
    text = resources.files("engine.eleusis").joinpath("data/library.json").read_text("utf-8")
    return load_library(text)


def library_rule(rule_id: str) -> LibraryRule:
    """A library rule by id ("R17") or key ("suit-cycle"); ``KeyError`` if none."""
    for entry in library():
        if rule_id in (entry.id, entry.key):
            return entry
    raise KeyError(rule_id)
