"""Typed reading of one JSON data file, failing with :class:`PaxDataError` (file, item)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib.resources.abc import Traversable
from types import MappingProxyType
from typing import Any, NoReturn, TypeVar

from engine.pax.errors import PaxDataError
from engine.pax.geometry import Pos

ROMAN = (
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
)

T = TypeVar("T")
Json = dict[str, Any]


def roman(number: int) -> str:
    """The Roman numeral of 1 to 39 (contact numbers, Appendix E)."""
    out = ""
    for value, numeral in ROMAN:
        while number >= value:
            out += numeral
            number -= value
    return out


class DataFile:
    """One data file being read: typed access that fails with the file and item named."""

    def __init__(self, name: str, root: Traversable) -> None:
        self.name = name
        node = root.joinpath(name)
        if not node.is_file():
            self.fail(None, "the file is missing")
        try:
            raw = json.loads(node.read_text("utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            self.fail(None, f"not valid JSON: {exc}")
        self.raw = self.obj(raw, None)

    def fail(self, item: str | None, problem: str) -> NoReturn:
        """Raise the error naming this file, the item (or None) and the problem."""
        raise PaxDataError(self.name, item, problem)

    def obj(self, value: Any, item: str | None, keys: set[str] | None = None) -> Json:
        """``value`` as a JSON object, with no key outside ``keys`` (when given)."""
        if not isinstance(value, dict):
            self.fail(item, "must be a JSON object")
        if keys is not None:
            extra = sorted(set(value) - keys)
            if extra:
                self.fail(item, f"unknown key '{extra[0]}'")
        return value

    def get(self, obj: Json, key: str, kind: type[T], item: str | None) -> T:
        """The required ``key`` of ``obj``, of type ``kind`` (a boolean is not an int)."""
        if key not in obj:
            self.fail(item, f"missing key '{key}'")
        value = obj[key]
        if isinstance(value, bool) and kind is not bool:
            self.fail(item, f"'{key}' must be {kind.__name__}, not a boolean")
        if not isinstance(value, kind):
            self.fail(item, f"'{key}' must be {kind.__name__}")
        return value

    def opt(self, obj: Json, key: str, kind: type[T], item: str | None) -> T | None:
        """A ``key`` that must be present and may be null."""
        if obj.get(key) is None:
            if key not in obj:
                self.fail(item, f"missing key '{key}'")
            return None
        return self.get(obj, key, kind, item)

    def strs(self, obj: Json, key: str, item: str | None) -> tuple[str, ...]:
        """A list of strings."""
        values = self.get(obj, key, list, item)
        if not all(isinstance(v, str) for v in values):
            self.fail(item, f"'{key}' must be a list of strings")
        return tuple(values)

    def pos(self, value: Any, item: str | None, what: str) -> Pos:
        """A position ``[r, c]`` of two integers (2.3.1)."""
        ok = isinstance(value, list) and len(value) == 2
        if not ok or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            self.fail(item, f"{what} must be a position [r, c]")
        return (value[0], value[1])

    def items(self, key: str, keys: set[str], ident: str = "id") -> list[tuple[str, Json]]:
        """The list under ``key``: (item id, object) pairs; ids must be unique."""
        values = self.get(self.raw, key, list, None)
        out: list[tuple[str, Json]] = []
        seen: set[str] = set()
        for index, value in enumerate(values):
            obj = self.obj(value, f"{key}[{index}]")
            if ident not in obj:
                self.fail(f"{key}[{index}]", f"missing key '{ident}'")
            name = obj.get(ident)
            label = str(name) if isinstance(name, str | int) else f"{key}[{index}]"
            self.obj(obj, label, keys)
            if label in seen:
                self.fail(label, f"duplicate {ident} '{label}'")
            seen.add(label)
            out.append((label, obj))
        return out

    def check(self, ok: bool, item: str | None, problem: str) -> None:
        """Fail unless ``ok``."""
        if not ok:
            self.fail(item, problem)


def frozen(mapping: Mapping[Any, T]) -> Mapping[Any, T]:
    """A read-only copy of a mapping, in the same order."""
    return MappingProxyType(dict(mapping))


def ref(f: DataFile, item: str, value: str | None, known: Mapping[str, Any], what: str) -> None:
    """Fail unless ``value`` (when given) is one of ``known``: a reference must resolve."""
    if value is not None and value not in known:
        f.fail(item, f"unknown {what} '{value}'")
