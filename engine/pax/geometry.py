"""The hex map of Pax Illuminaten and its geometry (spec 2.3, 2.4.1, 14.5).

A position is ``(r, c)``: ``r`` the row (0 at the top), ``c`` a doubled-width column, so
cards side by side in a row differ by 2 in ``c`` and neighbouring rows are offset by 1
(2.3.1). Positions off the map (placards, 2.4.1) use the same coordinates.

Pure functions of positions live at module level; :class:`MapGeometry` adds what depends
on a layout's set of positions (on or off the map, edge and interior, rows, components).
The bot frame of 14.5.1 (a seat's facing k turns the six directions) is here too,
because it is geometry; the bots' numbers (Appendix G) are data.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise

Pos = tuple[int, int]

DIRECTIONS: tuple[str, ...] = ("NW", "NE", "E", "SE", "SW", "W")
"""The six map directions, clockwise from NW (2.3.2)."""

STEPS: Mapping[str, Pos] = {
    "NW": (-1, -1),
    "NE": (-1, 1),
    "E": (0, 2),
    "SE": (1, 1),
    "SW": (1, -1),
    "W": (0, -2),
}
"""The step (dr, dc) of each direction (2.3.2)."""

BOT_FRAME: tuple[str, ...] = ("FL", "FR", "R", "BR", "BL", "L")
"""A bot's own directions, clockwise, indexes 0 to 5 (14.5.1)."""


class GeometryError(ValueError):
    """A geometric question that has no answer (e.g. a distance across lattices)."""


def step(pos: Pos, direction: str) -> Pos:
    """The position one step from ``pos`` in a map direction."""
    dr, dc = STEPS[direction]
    return (pos[0] + dr, pos[1] + dc)


def neighbours(pos: Pos) -> tuple[Pos, ...]:
    """The six neighbouring positions, clockwise from NW (2.3.2). Never ``pos`` itself."""
    return tuple(step(pos, d) for d in DIRECTIONS)


def adjacent(a: Pos, b: Pos, *, self_counts: bool = False) -> bool:
    """Whether two positions share an edge (2.3.2).

    With ``self_counts`` a position is adjacent to itself too: the rules' general
    "adjacent" (2.3.3, R03). Bots and Whisper use the six neighbours only (R48).
    """
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    if dr == 0 and dc == 0:
        return self_counts
    return (dr == 0 and dc == 2) or (dr == 1 and dc == 1)


def direction_between(a: Pos, b: Pos) -> str | None:
    """The map direction of the step from ``a`` to its neighbour ``b``, or None."""
    delta = (b[0] - a[0], b[1] - a[1])
    for direction in DIRECTIONS:
        if STEPS[direction] == delta:
            return direction
    return None


def same_lattice(a: Pos, b: Pos) -> bool:
    """Whether two positions lie on the same staggered lattice (``r + c`` of one parity).

    Every position of a layout, and its placards, share one parity; positions of the other
    parity are never reached by steps from them.
    """
    return (a[0] + a[1]) % 2 == (b[0] + b[1]) % 2


def distance(a: Pos, b: Pos) -> int:
    """Hex distance (14.5.6): ``|dr| + max(0, (|dc| - |dr|) / 2)``, in steps.

    It is the least number of steps from ``a`` to ``b`` on the lattice; it is defined only
    between positions of the same lattice.
    """
    if not same_lattice(a, b):
        raise GeometryError(f"{a} and {b} are not on the same lattice")
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return dr + max(0, (dc - dr) // 2)


def reading_key(pos: Pos) -> Pos:
    """Sort key of reading order (14.5.6, 3.2 step 2): row, then column, ascending."""
    return (pos[0], pos[1])


def in_reading_order(positions: Iterable[Pos]) -> tuple[Pos, ...]:
    """The positions sorted in reading order."""
    return tuple(sorted(positions, key=reading_key))


def frame(facing: int) -> tuple[str, ...]:
    """The map directions of a bot's FL, FR, R, BR, BL, L for facing ``k`` (14.5.1)."""
    if not 0 <= facing < 6:
        raise GeometryError(f"facing {facing} is not 0 to 5")
    return tuple(DIRECTIONS[(i + facing) % 6] for i in range(6))


def frame_step(pos: Pos, facing: int, index: int) -> Pos:
    """The position one step from ``pos`` in bot direction ``index`` (0 = FL)."""
    return step(pos, frame(facing)[index % 6])


def frame_index_between(a: Pos, b: Pos, facing: int) -> int | None:
    """The bot direction index (0 = FL) of the step from ``a`` to its neighbour ``b``."""
    direction = direction_between(a, b)
    if direction is None:
        return None
    return frame(facing).index(direction)


def diagram_index(diagram: Mapping[str, int], number: int) -> int:
    """The bot direction index that a diagram (Appendix G) numbers ``number``."""
    for index, name in enumerate(BOT_FRAME):
        if diagram[name] == number:
            return index
    raise GeometryError(f"no direction is numbered {number}")


def priority_order(diagram: Mapping[str, int]) -> tuple[int, ...]:
    """Bot direction indexes, highest diagram number first (14.5.4)."""
    return tuple(sorted(range(6), key=lambda i: -diagram[BOT_FRAME[i]]))


def segment_is_consecutive(positions: Iterable[Pos]) -> bool:
    """Whether the positions lie in one row with no gap: columns c, c+2, c+4, ... (P11)."""
    cells = sorted(set(positions))
    if not cells or len({r for r, _ in cells}) != 1:
        return False
    return all(b[1] - a[1] == 2 for a, b in pairwise(cells))


@dataclass(frozen=True)
class MapGeometry:
    """A layout's positions (Appendix F) and everything 2.3 derives from them."""

    positions: tuple[Pos, ...]

    def __post_init__(self) -> None:
        if not self.positions:
            raise GeometryError("a map needs at least one position")
        if len(set(self.positions)) != len(self.positions):
            raise GeometryError("a map position is listed twice")
        first = self.positions[0]
        for pos in self.positions:
            if not same_lattice(first, pos):
                raise GeometryError(f"{pos} is not on the lattice of {first}")
        object.__setattr__(self, "positions", in_reading_order(self.positions))

    @cached_property
    def _set(self) -> frozenset[Pos]:
        return frozenset(self.positions)

    def on_map(self, pos: Pos) -> bool:
        """Whether ``pos`` is a map position (a placard's position is not)."""
        return pos in self._set

    def map_neighbours(self, pos: Pos) -> tuple[Pos, ...]:
        """The neighbours of ``pos`` that are map positions, clockwise from NW (R48)."""
        return tuple(p for p in neighbours(pos) if p in self._set)

    def is_interior(self, pos: Pos) -> bool:
        """A map card all of whose six neighbours are map positions (2.3.4, R04)."""
        return pos in self._set and len(self.map_neighbours(pos)) == 6

    def is_edge(self, pos: Pos) -> bool:
        """A map card that is not interior (2.3.4)."""
        return pos in self._set and len(self.map_neighbours(pos)) < 6

    @cached_property
    def interior(self) -> tuple[Pos, ...]:
        """The interior positions, in reading order."""
        return tuple(p for p in self.positions if self.is_interior(p))

    @cached_property
    def edge(self) -> tuple[Pos, ...]:
        """The edge positions, in reading order."""
        return tuple(p for p in self.positions if self.is_edge(p))

    @cached_property
    def rows(self) -> tuple[int, ...]:
        """The row numbers that hold map positions, ascending."""
        return tuple(sorted({r for r, _ in self.positions}))

    @property
    def top_row(self) -> int:
        """The top row (2.3.5): row 0 on every layout of the spec."""
        return self.rows[0]

    @property
    def bottom_row(self) -> int:
        """The bottom row (2.3.5): the last row."""
        return self.rows[-1]

    @property
    def middle_row(self) -> int:
        """The middle row (2.3.5): the row halfway down an odd number of rows."""
        if len(self.rows) % 2 == 0:
            raise GeometryError(f"{len(self.rows)} rows have no single middle row")
        return self.rows[len(self.rows) // 2]

    def row(self, r: int) -> tuple[Pos, ...]:
        """The map positions of row ``r``, left to right."""
        return tuple(p for p in self.positions if p[0] == r)

    def touching(self, pos: Pos) -> tuple[Pos, ...]:
        """The map positions adjacent to ``pos`` (for a placard, 2.4.1), clockwise."""
        return self.map_neighbours(pos)

    def is_placard_position(self, pos: Pos) -> bool:
        """Off the map and touching exactly two map positions (2.4.1)."""
        return (
            not self.on_map(pos)
            and same_lattice(pos, self.positions[0])
            and len(self.touching(pos)) == 2
        )

    def components(self, cells: Iterable[Pos]) -> tuple[tuple[Pos, ...], ...]:
        """The connected components of a set of positions under adjacency (2.8.2).

        Each component is in reading order; components are ordered by their first cell.
        """
        remaining = set(cells)
        found: list[tuple[Pos, ...]] = []
        for start in in_reading_order(remaining):
            if start not in remaining:
                continue
            remaining.discard(start)
            group = [start]
            frontier = [start]
            while frontier:
                here = frontier.pop()
                for nxt in neighbours(here):
                    if nxt in remaining:
                        remaining.discard(nxt)
                        group.append(nxt)
                        frontier.append(nxt)
            found.append(in_reading_order(group))
        return tuple(found)

    def is_connected(self, cells: Iterable[Pos]) -> bool:
        """Whether a non-empty set of positions is connected under adjacency."""
        return len(self.components(cells)) == 1

    def plan_target(
        self, origin: Pos, facing: int, diagram: Mapping[str, int], number: int
    ) -> tuple[int, Pos] | None:
        """PLAN's target (14.5.5 step 3): start at the direction numbered ``number`` in
        the frame at ``origin``; skip off-map positions clockwise (only those, [seed 852]).

        Returns the bot direction index that gave the target, and the target; None when
        no neighbour of ``origin`` is on the map.
        """
        start = diagram_index(diagram, number)
        for turn in range(6):
            index = (start + turn) % 6
            target = frame_step(origin, facing, index)
            if self.on_map(target):
                return index, target
        return None

    def clockwise_neighbours(self, origin: Pos, facing: int, start: int) -> tuple[Pos, ...]:
        """The map neighbours of ``origin``, clockwise from bot direction ``start`` (R62)."""
        cells = (frame_step(origin, facing, start + turn) for turn in range(6))
        return tuple(p for p in cells if self.on_map(p))

    def nearest(self, origin: Pos, cells: Iterable[Pos]) -> tuple[Pos, ...]:
        """The cells nearest to ``origin`` (14.5.6), in reading order."""
        pool = list(cells)
        if not pool:
            return ()
        best = min(distance(origin, p) for p in pool)
        return in_reading_order(p for p in pool if distance(origin, p) == best)
