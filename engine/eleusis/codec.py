"""JSON for frozen dataclasses of ints, strs, bools, ``None`` and tuples, driven by the
type hints, so ``decode(State, encode(state)) == state`` exactly."""

from __future__ import annotations

import functools
import types
import typing
from dataclasses import fields, is_dataclass
from typing import Any, TypeVar

T = TypeVar("T")


class CodecError(ValueError):
    """A JSON document that does not have the shape of the type it is read as."""


def encode(value: Any) -> Any:
    """The JSON value (dicts, lists, scalars) of a dataclass, tuple or scalar."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple):
        return [encode(item) for item in value]
    return value


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def decode(tp: Any, data: Any, where: str = "$") -> Any:
    """``data`` read as type ``tp``; :class:`CodecError` naming the place otherwise."""
    if tp is Any:
        return data
    if tp is type(None):
        if data is not None:
            raise CodecError(f"{where}: expected null")
        return None
    if tp in (int, str, bool):
        if not isinstance(data, tp) or (tp is int and isinstance(data, bool)):
            raise CodecError(f"{where}: expected {tp.__name__}, got {data!r}")
        return data
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(tp)
        if data is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return decode(option, data, where)
            except CodecError as exc:
                errors.append(str(exc))
        raise CodecError("; ".join(errors))
    if origin is tuple:
        if not isinstance(data, list):
            raise CodecError(f"{where}: expected a list")
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], item, f"{where}[{i}]") for i, item in enumerate(data))
        if len(args) != len(data):
            raise CodecError(f"{where}: expected {len(args)} items")
        return tuple(
            decode(arg, item, f"{where}[{i}]")
            for i, (arg, item) in enumerate(zip(args, data, strict=True))
        )
    if isinstance(tp, type) and is_dataclass(tp):
        if not isinstance(data, dict):
            raise CodecError(f"{where}: expected an object")
        hints = _hints(tp)
        names = [f.name for f in fields(tp)]
        if set(data) != set(names):
            raise CodecError(f"{where}: expected the keys {sorted(names)}, got {sorted(data)}")
        return tp(**{name: decode(hints[name], data[name], f"{where}.{name}") for name in names})
    raise CodecError(f"{where}: cannot read type {tp!r}")
