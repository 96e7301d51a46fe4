"""The hex map geometry (spec 2.3, 2.4.1, 14.5) on the layouts of Appendix F."""

from __future__ import annotations

from collections import deque
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pax.catalog import Layout, Seat
from engine.pax.geometry import (
    BOT_FRAME,
    DIRECTIONS,
    STEPS,
    GeometryError,
    MapGeometry,
    Pos,
    adjacent,
    diagram_index,
    direction_between,
    distance,
    frame,
    frame_index_between,
    in_reading_order,
    neighbours,
    priority_order,
    segment_is_consecutive,
    step,
)
from engine.pax.loader import data

M14 = data().layouts["M14"].geometry
M19 = data().layouts["M19"].geometry
LAYOUTS = [M14, M19]
SEATS = [
    pytest.param(layout, seat, id=f"{layout.id}-{players}p-seat{seat.number}")
    for layout in data().layouts.values()
    for players, seats in layout.seat_sets.items()
    for seat in seats
]


def _p(text: str) -> list[Pos]:
    """Positions written as in the spec: "(0,3), (0,5)"."""
    return [(int(a), int(b)) for a, b in (x.strip(" ()").split(",") for x in text.split("), ("))]


# --- 2.3.2 adjacency and directions ------------------------------------------------------


def test_2_3_2_the_six_directions_clockwise_and_their_steps() -> None:
    assert DIRECTIONS == ("NW", "NE", "E", "SE", "SW", "W")
    assert dict(STEPS) == {
        "NW": (-1, -1),
        "NE": (-1, 1),
        "E": (0, 2),
        "SE": (1, 1),
        "SW": (1, -1),
        "W": (0, -2),
    }
    assert neighbours((2, 4)) == ((1, 3), (1, 5), (2, 6), (3, 5), (3, 3), (2, 2))


def test_2_3_2_adjacent_in_a_row_differ_by_2_and_across_rows_by_1() -> None:
    assert adjacent((2, 4), (2, 6))
    assert adjacent((2, 4), (2, 2))
    assert adjacent((2, 4), (1, 3))
    assert adjacent((2, 4), (3, 5))
    assert not adjacent((2, 4), (2, 8))
    assert not adjacent((2, 4), (0, 4))  # same column two rows apart: not neighbours
    assert not adjacent((2, 4), (1, 7))


def test_2_3_3_a_card_is_adjacent_to_itself_only_where_the_rules_say_so() -> None:
    # R03: the rules' "adjacent" includes self; bots and Whisper use six neighbours (R48).
    assert adjacent((2, 4), (2, 4), self_counts=True)
    assert not adjacent((2, 4), (2, 4))
    assert (2, 4) not in M19.map_neighbours((2, 4))


def test_2_3_2_direction_between_neighbours_only() -> None:
    assert direction_between((2, 4), (1, 5)) == "NE"
    assert direction_between((2, 4), (2, 2)) == "W"
    assert direction_between((2, 4), (2, 4)) is None
    assert direction_between((2, 4), (0, 4)) is None


# --- Appendix F layouts, 2.3.4 edge and interior, 2.3.5 rows ------------------------------


def test_f1_m14_positions_interior_and_rows() -> None:
    assert M14.positions == tuple(
        _p(
            "(0,3), (0,5), (1,2), (1,4), (1,6), (2,1), (2,3), (2,5), (2,7), (3,2), (3,4), "
            "(3,6), (4,3), (4,5)"
        )
    )
    assert M14.interior == tuple(_p("(1,4), (2,3), (2,5), (3,4)"))
    assert len(M14.edge) == 10
    assert (M14.top_row, M14.middle_row, M14.bottom_row) == (0, 2, 4)
    assert M14.row(M14.middle_row) == tuple(_p("(2,1), (2,3), (2,5), (2,7)"))


def test_f2_m19_positions_interior_and_rows() -> None:
    assert len(M19.positions) == 19
    assert M19.interior == tuple(_p("(1,3), (1,5), (2,2), (2,4), (2,6), (3,3), (3,5)"))
    assert (M19.top_row, M19.middle_row, M19.bottom_row) == (0, 2, 4)
    assert M19.row(2) == tuple(_p("(2,0), (2,2), (2,4), (2,6), (2,8)"))


def test_2_3_4_r04_the_middle_of_the_top_row_is_an_edge_card() -> None:
    # With square cards all four corners of (0,4) touch cards; on the hex map it is edge.
    assert M19.is_edge((0, 4))
    assert not M19.is_interior((0, 4))
    assert len(M19.map_neighbours((0, 4))) == 4


def test_2_3_4_edge_and_interior_partition_the_map() -> None:
    for g in LAYOUTS:
        assert set(g.edge) | set(g.interior) == set(g.positions)
        assert not set(g.edge) & set(g.interior)
        assert not g.is_edge((9, 9))
        assert not g.is_interior((9, 9))


def test_f_p04_the_interior_group_touches_at_least_2_others_each() -> None:
    for g in LAYOUTS:
        cells = set(g.interior)
        assert g.is_connected(cells)
        assert all(sum(adjacent(a, b) for b in cells) >= 2 for a in cells)


def test_2_3_5_a_map_with_an_even_number_of_rows_has_no_middle_row() -> None:
    with pytest.raises(GeometryError, match="4 rows have no single middle row"):
        _ = MapGeometry(((0, 0), (1, 1), (2, 0), (3, 1))).middle_row


def test_2_3_1_p7_positions_must_share_one_lattice() -> None:
    with pytest.raises(GeometryError, match=r"\(0, 1\) is not on the lattice of \(0, 0\)"):
        MapGeometry(((0, 0), (0, 1)))


# --- 2.4.1 placards and 14.5.1 frames -------------------------------------------------------


@pytest.mark.parametrize(("layout", "seat"), SEATS)
def test_2_4_1_each_placard_lies_off_the_map_and_touches_exactly_two_cards(
    layout: Layout, seat: Seat
) -> None:
    g = layout.geometry
    placard = seat.placard
    assert not g.on_map(placard)
    assert set(g.touching(placard)) == set(seat.touches)
    assert g.is_placard_position(placard)


@pytest.mark.parametrize(("layout", "seat"), SEATS)
def test_14_5_1_from_the_placard_fl_and_fr_are_the_two_map_cards_it_touches(
    layout: Layout, seat: Seat
) -> None:
    facing = seat.facing
    placard = seat.placard
    assert seat.frame == frame(facing)
    forward = (step(placard, frame(facing)[0]), step(placard, frame(facing)[1]))
    assert forward == seat.touches


def test_f_seat_tables_as_printed() -> None:
    seats = data().layouts["M19"].seats(4)
    assert [(s.placard, s.facing) for s in seats] == [
        ((5, 5), 0),
        ((3, -1), 1),
        ((-1, 3), 3),
        ((1, 9), 4),
    ]
    assert seats[3].frame == ("SW", "W", "NW", "NE", "E", "SE")
    assert data().layouts["M14"].seats(2)[1].touches == ((0, 5), (0, 3))


def test_14_5_1_frame_index_i_is_direction_i_plus_k() -> None:
    assert frame(0) == DIRECTIONS
    assert frame(2) == ("E", "SE", "SW", "W", "NW", "NE")
    assert frame_index_between((5, 5), (4, 6), 0) == 1  # FR
    with pytest.raises(GeometryError):
        frame(6)


# --- 14.5 diagrams, priority and PLAN ------------------------------------------------------


def test_14_5_4_priority_takes_the_highest_number_first() -> None:
    sg = data().bots["SG"].diagram  # FL 6, FR 5, R 3, BR 1, BL 2, L 4
    assert [BOT_FRAME[i] for i in priority_order(sg)] == ["FL", "FR", "L", "R", "BL", "BR"]


def test_14_5_5_r49_number_1_is_the_direction_only_an_ace_or_crown_reaches() -> None:
    assert BOT_FRAME[diagram_index(data().bots["AW"].diagram, 1)] == "BL"
    with pytest.raises(GeometryError):
        diagram_index(data().bots["AW"].diagram, 7)


@pytest.mark.parametrize(("layout", "seat"), SEATS)
def test_14_10_4_worked_example_plan_4_is_l_off_the_map_so_step_clockwise_to_fl(
    layout: Layout, seat: Seat
) -> None:
    """The seed's AW example [seed 856]: strength 4 is L, off the map; clockwise gives FL."""
    g = layout.geometry
    aw = data().bots["AW"].diagram
    placard, facing = seat.placard, seat.facing
    assert not g.on_map(step(placard, frame(facing)[BOT_FRAME.index("L")]))
    assert g.plan_target(placard, facing, aw, 4) == (0, seat.touches[0])


def test_14_5_5_plan_skips_only_off_map_positions() -> None:
    aw = data().bots["AW"].diagram
    # From the interior card (2,4) of M19 every direction is on the map: 6 is R = E.
    assert M19.plan_target((2, 4), 0, aw, 6) == (2, (2, 6))
    # From the edge card (4,4) facing 0, R (E) is (4,6): on the map.
    assert M19.plan_target((4, 4), 0, aw, 6) == (2, (4, 6))
    # From (4,6), R is (4,8): off; BR (5,7) and BL (5,5) off; L (4,4) on.
    assert M19.plan_target((4, 6), 0, aw, 6) == (5, (4, 4))
    assert MapGeometry(((0, 0),)).plan_target((0, 0), 0, aw, 3) is None


def test_r62_clockwise_neighbours_start_at_the_given_direction() -> None:
    assert M19.clockwise_neighbours((4, 4), 0, 2) == ((4, 6), (4, 2), (3, 3), (3, 5))


# --- 14.5.6 distance and reading order, P11 rows ---------------------------------------------


def test_14_5_6_p7_distance_formula_examples() -> None:
    assert distance((0, 2), (4, 6)) == 4
    assert distance((2, 0), (2, 8)) == 4
    assert distance((0, 2), (0, 2)) == 0
    assert distance((1, 1), (4, 2)) == 3
    with pytest.raises(GeometryError):
        distance((0, 0), (0, 1))


def test_14_5_6_reading_order_and_nearest() -> None:
    assert in_reading_order([(2, 0), (0, 6), (0, 2)]) == ((0, 2), (0, 6), (2, 0))
    assert M19.nearest((2, 4), [(0, 2), (4, 6), (2, 8), (0, 6)]) == ((0, 2), (0, 6), (2, 8), (4, 6))
    assert M19.nearest((2, 4), [(0, 2), (2, 6)]) == ((2, 6),)
    assert M19.nearest((2, 4), []) == ()


def test_p11_consecutive_cards_in_one_row() -> None:
    assert segment_is_consecutive([(2, 4), (2, 2), (2, 6)])
    assert not segment_is_consecutive([(2, 0), (2, 4)])
    assert not segment_is_consecutive([(2, 2), (1, 3)])
    assert not segment_is_consecutive([])


def test_2_8_2_components_are_connected_groups() -> None:
    cells = [(0, 2), (1, 3), (2, 4), (4, 6), (2, 8)]
    assert M19.components(cells) == (((0, 2), (1, 3), (2, 4)), ((2, 8),), ((4, 6),))
    assert not M19.is_connected(cells)


# --- properties ----------------------------------------------------------------------------

coords = st.integers(min_value=-8, max_value=8)


@st.composite
def lattice_pos(draw: st.DrawFn) -> Pos:
    """A position on the even lattice (r + c even)."""
    r, c = draw(coords), draw(coords)
    return (r, c - ((r + c) % 2))


def _bfs(start: Pos, cells: set[Pos] | None = None, limit: int = 20) -> dict[Pos, int]:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if seen[here] >= limit:
            continue
        for nxt in neighbours(here):
            if nxt not in seen and (cells is None or nxt in cells):
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return seen


@settings(max_examples=150, deadline=None)
@given(lattice_pos(), lattice_pos())
def test_property_adjacency_is_symmetric_and_means_distance_1(a: Pos, b: Pos) -> None:
    assert adjacent(a, b) == adjacent(b, a)
    assert adjacent(a, b) == (distance(a, b) == 1)
    assert adjacent(a, b, self_counts=True) == (distance(a, b) <= 1)


@settings(max_examples=150, deadline=None)
@given(lattice_pos(), lattice_pos(), lattice_pos())
def test_property_distance_is_a_metric(a: Pos, b: Pos, c: Pos) -> None:
    assert distance(a, b) >= 0
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, b) == distance(b, a)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@settings(max_examples=40, deadline=None)
@given(lattice_pos())
def test_property_distance_is_the_least_number_of_steps(a: Pos) -> None:
    for b, steps in _bfs(a, limit=4).items():
        assert distance(a, b) == steps


@settings(max_examples=100, deadline=None)
@given(lattice_pos(), st.sampled_from(DIRECTIONS), st.integers(0, 5))
def test_property_steps_invert_and_frames_rotate(a: Pos, d: str, k: int) -> None:
    opposite = DIRECTIONS[(DIRECTIONS.index(d) + 3) % 6]
    assert step(step(a, d), opposite) == a
    assert direction_between(a, step(a, d)) == d
    assert frame(k) == tuple(frame(0)[(i + k) % 6] for i in range(6))
    assert frame_index_between(a, step(a, frame(k)[2]), k) == 2


def test_property_on_both_layouts_the_map_distance_is_the_hex_distance() -> None:
    """Both layouts are convex: the shortest path inside the map is the lattice distance."""
    for g in LAYOUTS:
        cells = set(g.positions)
        for a, b in combinations(g.positions, 2):
            assert _bfs(a, cells)[b] == distance(a, b)
        assert g.is_connected(cells)


def test_14_5_3_r48_a_placard_position_counts_as_off_the_map() -> None:
    assert (5, 5) in neighbours((4, 4))  # seat 1's placard on M19
    assert (5, 5) not in M19.map_neighbours((4, 4))
    assert not M19.on_map((5, 5))


@settings(max_examples=60, deadline=None)
@given(st.sets(lattice_pos(), max_size=25))
def test_property_components_partition_a_set_into_unlinked_connected_groups(
    cells: set[Pos],
) -> None:
    groups = M19.components(cells)
    assert sorted(p for g in groups for p in g) == sorted(cells)
    for group in groups:
        assert set(_bfs(group[0], set(group))) == set(group)
    for a, b in combinations(groups, 2):
        assert not any(adjacent(x, y) for x in a for y in b)
