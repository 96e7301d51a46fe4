"""Joseph II (14.10.2): Oust a neighbour, the Charge, Influence or Scout a neighbour
without a bot disk, reach for the nearest card (R59, R83, P-34); its plots (14.9)."""

from __future__ import annotations

from engine.pax import engine as E
from engine.pax.automa.turn import victory
from tests.engine.pax.automa_support import BL, BR, FL, FR, L, R, atable, bpos, lines, texts, turn
from tests.engine.pax.support import idx, kinds, put, slots, steps

BOT = 1
SIX = (FL, FR, R, BR, BL, L)
"""J2 numbers them 5, 6, 4, 2, 1, 3 (Appendix G)."""
PLAIN = ("PIL003", "PIL007", "PIL008", "PIL011", "PIL015", "PIL020")


def test_14_10_2_a_ousts_the_highest_numbered_neighbour_with_human_disks() -> None:
    t = atable(2, "J2")
    bpos(t, (2, 3), "PIL016")
    for pos, card in zip(SIX, PLAIN, strict=True):
        put(t, pos, card, [0] if pos in (FL, FR) else [])
    s = turn(t)
    assert lines(s)[0] == ("a", [3, 2])  # FR is numbered 6 for J2
    assert "ousts 1 disk(s) of seat 0 from PIL007 at (3, 2)" in texts(s)[0]


def test_14_10_2_b_r59_charges_from_the_neighbour_with_the_most_bot_disks() -> None:
    """No neighbour of B holds human disks; (1, 6) does and touches (0, 5), which holds 2
    bot disks: the token moves to (0, 5) and the automa Ousts (1, 6) acting from it."""
    t = atable(2, "J2")
    bpos(t, (2, 3), "PIL016")
    for pos, card in zip(SIX, PLAIN, strict=True):
        put(t, pos, card, [])
    put(t, (0, 5), "PIL044", [BOT, BOT])
    put(t, (1, 6), "PIL043", [0])
    s = turn(t)
    assert lines(s)[:2] == [("b", [0, 5]), ("b", [1, 6])]
    assert s.token == idx(t, (0, 5))
    assert s.oust is None  # the human had no card: "no card" was forced (R79)
    assert steps(s, "oust_end")[0]["winner"] == BOT  # 2 + a card against 1
    assert kinds(s) == "gain"


def test_14_10_2_c_influences_or_scouts_the_highest_numbered_neighbour_without_a_bot_disk() -> None:
    t = atable(2, "J2")
    bpos(t, (2, 3), "PIL016")
    s = turn(t)  # every neighbour face down: Scout FR (numbered 6)
    assert lines(s) == [("c", [3, 2])]
    t = atable(2, "J2")
    bpos(t, (2, 3), "PIL016")
    put(t, FR, "PIL003", [BOT])
    put(t, FL, "PIL007", [])
    s = turn(t)  # FR holds a bot disk: FL (5), face up: B-Influence
    assert lines(s)[0] == ("c", [3, 4])
    assert slots(s, FL) == [BOT, None, None]
    assert s.token == idx(t, FL)  # R55


def test_14_10_2_d_r83_p34_reaches_the_nearest_card_from_its_strongest_neighbour() -> None:
    """Every neighbour of B holds a bot disk: the cards without one next to bot disks
    all lie at distance 2 from B; the first in reading order is (0, 3); its neighbour
    with the most bot disks is BL (1, 4); the token goes there and Scouts (0, 3)."""
    t = atable(2, "J2")
    bpos(t, (2, 3), "PIL016")
    for pos, card in zip(SIX, PLAIN, strict=True):
        put(t, pos, card, [BOT, BOT] if pos == BL else [BOT])
    s = turn(t)
    assert lines(s)[:2] == [("d", [0, 3]), ("d", [0, 3])]
    assert s.token == idx(t, BL)
    assert s.up[idx(t, (0, 3))]


def test_14_9_j2_plot_2_from_round_2_a_human_without_disks_loses() -> None:
    t = atable(2, "J2")
    bpos(t, (2, 3), "PIL016")
    assert victory(t, BOT) is None  # round 1
    t.round = 2
    assert victory(t, BOT) == 2
    put(t, (4, 3), "PIL043", [0])
    assert victory(t, BOT) is None


def test_14_9_r11_j2_plot_3_the_deck_ran_out_twice() -> None:
    t = atable(3, "J2")
    put(t, (2, 4), "PIL043", [0])
    put(t, (3, 3), "PIL044", [1])
    t.round = 2
    assert victory(t, 2) is None
    t.exhaustions = 2
    assert victory(t, 2) == 3


def test_14_8_3_r57_j2_wins_in_its_check_phase() -> None:
    t = atable(2, "J2")
    bpos(t, (2, 3), "PIL016")
    t.round = 2
    s = turn(t)
    while E.to_act(s) is None and not E.is_over(s):
        s = E.advance(s)
    result = E.result(s)
    assert result is not None
    assert result["reason"] == "automa_plot"
    assert result["automa_plot"] == 2
    assert result["winner_seats"] == [BOT]
    assert result["ranking"] == [[BOT], [0]]
    assert result["scores"] == {"0": 0, "1": 1}
    assert kinds(s) is None
    assert s.phase == "over"
