"""The public evidence about a round's rule (NE-30.2, OR40): judged cells, each a main line
of ``n`` cards ending in ``prev`` and a candidate face."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Context = tuple[int, int]  # (n, prev): a main line of n cards ending in prev
Cell = tuple[int, int, int]  # (n, prev, card)


@dataclass(frozen=True)
class Evidence:
    """Judgements read from the public record of a round."""

    right: frozenset[Cell] = frozenset()
    wrong: frozenset[Cell] = frozenset()
    wrong_strings: frozenset[tuple[Cell, ...]] = frozenset()
    """Strings judged wrong: not every card was right in sequence (NE-8.2)."""
    some_right: frozenset[tuple[Cell, ...]] = frozenset()
    """Shown hands of wrong no plays with no card placed (E22): some card was right."""

    def __len__(self) -> int:
        return len(self.right) + len(self.wrong) + len(self.wrong_strings) + len(self.some_right)

    def __le__(self, other: Evidence) -> bool:
        return (
            self.right <= other.right
            and self.wrong <= other.wrong
            and self.wrong_strings <= other.wrong_strings
            and self.some_right <= other.some_right
        )


def evidence(
    main: Sequence[int],
    starters: int,
    side_plays: Iterable[tuple[int, Sequence[int]]] = (),
    exhibits: Iterable[tuple[int, Sequence[int]]] = (),
) -> Evidence:
    """Evidence from the main line (faces, the first ``starters`` of them turned up by the
    server), the wrong plays (the main-line index of the card each followed, and its faces
    in the order played) and the exhibits of correct no plays (index, faces)."""
    right = {(i, main[i - 1], main[i]) for i in range(max(1, starters), len(main))}
    wrong: set[Cell] = set()
    strings: set[tuple[Cell, ...]] = set()
    for after, faces in side_plays:
        n, prev = after + 1, main[after]
        if len(faces) == 1:
            wrong.add((n, prev, faces[0]))
            continue
        cells = []
        for face in faces:
            cells.append((n, prev, face))
            n, prev = n + 1, face
        strings.add(tuple(cells))
    for after, faces in exhibits:
        wrong.update((after + 1, main[after], face) for face in faces)
    return Evidence(frozenset(right), frozenset(wrong), frozenset(strings))
