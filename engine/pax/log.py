"""The log (H.6) as an immutable sequence that grows in O(1) amortised per call.

Entries live in chunks of up to ``CHUNK`` entries; adding entries copies only the last
chunk and the (short) tuple of chunks, so a long game does not copy its whole log on every
``apply``. It reads like a tuple: ``len``, indexing, slicing, iteration, equality.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import overload

from engine.core import JsonDict

CHUNK = 64


class Log(Sequence[JsonDict]):
    """An immutable sequence of log entries (entries are never changed once logged)."""

    __slots__ = ("_chunks", "_len")

    def __init__(self, chunks: tuple[tuple[JsonDict, ...], ...] = ()) -> None:
        self._chunks = chunks
        self._len = sum(len(c) for c in chunks)

    @classmethod
    def of(cls, entries: Iterable[JsonDict]) -> Log:
        return cls().extend(entries)

    def extend(self, entries: Iterable[JsonDict]) -> Log:
        new = tuple(entries)
        if not new:
            return self
        chunks = self._chunks
        if chunks and len(chunks[-1]) < CHUNK:
            tail = chunks[-1] + new
            chunks = chunks[:-1]
        else:
            tail = new
        if len(tail) > CHUNK:
            chunks += tuple(tail[i : i + CHUNK] for i in range(0, len(tail), CHUNK))
        else:
            chunks += (tail,)
        log = Log.__new__(Log)
        log._chunks = chunks
        log._len = self._len + len(new)
        return log

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> JsonDict: ...

    @overload
    def __getitem__(self, index: slice) -> list[JsonDict]: ...

    def __getitem__(self, index: int | slice) -> JsonDict | list[JsonDict]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._len)
            if step != 1:
                return list(self)[index]
            out: list[JsonDict] = []
            chunk, offset = divmod(start, CHUNK)
            while start < stop and chunk < len(self._chunks):
                part = self._chunks[chunk][offset : offset + stop - start]
                out.extend(part)
                start += len(part)
                chunk, offset = chunk + 1, 0
            return out
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("log index out of range")
        chunk, offset = divmod(index, CHUNK)
        return self._chunks[chunk][offset]

    def __iter__(self) -> Iterator[JsonDict]:
        for chunk in self._chunks:
            yield from chunk

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Log):
            return self._len == other._len and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._len)

    def __repr__(self) -> str:
        return f"Log({self._len} entries)"
