"""Every random choice of Pax Illuminaten, from the game seed (spec 15.3, ruling P-1).

A labelled draw reads the byte stream ``HMAC-SHA256(key=seed, msg=label ‖ counter)`` for
counter = 0, 1, 2, ... (the seed and label UTF-8 encoded, the counter 8 bytes big-endian),
cut into 32-bit big-endian words. ``below(n)`` takes the next word ``w`` and rejects it
while ``w >= 2**32 - 2**32 % n`` (rejection sampling), then returns ``w % n``. A shuffle is
Fisher-Yates from the last index down: for ``i`` from ``len - 1`` to 1, swap ``i`` with
``below(i + 1)``. Each label has its own stream; nothing else is random (15.3.3).

Labels (15.3.2): ``lum/initial``, ``lum/reshuffle/<n>``, ``events/edicts``,
``events/specials``, ``events/packetA``, ``events/packetB``, ``plots``, ``factions``,
``contacts`` and ``seats``.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

WORD = 1 << 32


def seed_commitment(seed: str) -> str:
    """The public commitment to a seed: lower-case hex SHA-256 of its UTF-8 bytes (H.2)."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def block(seed: str, label: str, counter: int) -> bytes:
    """Block ``counter`` of a label's stream: 32 bytes."""
    message = label.encode("utf-8") + counter.to_bytes(8, "big")
    return hmac.new(seed.encode("utf-8"), message, hashlib.sha256).digest()


class Stream:
    """The numbers of one labelled draw. Local state only; never the global random."""

    def __init__(self, seed: str, label: str) -> None:
        self.seed = seed
        self.label = label
        self.blocks = 0
        self._buffer = b""

    def word(self) -> int:
        """The next 32-bit word of the stream."""
        if not self._buffer:
            self._buffer = block(self.seed, self.label, self.blocks)
            self.blocks += 1
        word, self._buffer = self._buffer[:4], self._buffer[4:]
        return int.from_bytes(word, "big")

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, by rejection sampling."""
        if n < 1:
            raise ValueError(f"cannot draw below {n}")
        limit = WORD - WORD % n
        while True:
            value = self.word()
            if value < limit:
                return value % n

    def shuffle(self, items: Sequence[T]) -> tuple[T, ...]:
        """A Fisher-Yates shuffle of ``items`` (the input is not changed)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out)


def shuffled(seed: str, label: str, items: Sequence[T]) -> tuple[T, ...]:
    """``items`` shuffled by the stream of ``label``; the first item is the top (H.1)."""
    return Stream(seed, label).shuffle(items)
