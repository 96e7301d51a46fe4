"""PLAN (14.5.5) and the scripts of Alessandro Cagliostro (14.10.3) and Adam Weishaupt
(14.10.4), the f-search (14.10.5, R62), the worked example of 14.10.4 (16.4's last
anchor) and their plots (14.9).

AC numbers FL 6, FR 5, R 4, BR 3, BL 1, L 2; AW numbers FL 3, FR 5, R 6, BR 2, BL 1,
L 4 (Appendix G). With B = (2, 3) on M14 and a PLAN card of strength 4, AC's target is
R = (2, 1). B's card PIL016 shows NOB and PRO.
"""

from __future__ import annotations

from engine.pax.automa.turn import victory
from engine.pax.state import State, Table
from tests.engine.pax.automa_support import BL, R, atable, bpos, deck_top, lines, texts, turn
from tests.engine.pax.support import (
    act,
    card_at,
    fav,
    favor,
    gain,
    hand,
    idx,
    kinds,
    put,
    slots,
    steps,
)

BOT = 1
P_PLAIN = "PIL027"  # ART/CLE, strength 4, neither FM nor RC: shares nothing with NOB/PRO


def ac(target_card: str, disks: list[int | None], plan: str = P_PLAIN) -> tuple[Table, State]:
    t = atable(2, "AC")
    bpos(t, (2, 3), "PIL016")
    put(t, R, target_card, disks)
    deck_top(t, plan)
    return t, turn(t)


def test_14_5_5_plan_turns_the_deck_top_and_points_by_its_strength() -> None:
    _t, s = ac("PIL001", [])
    assert s.plan == P_PLAIN  # beside the map until the Redraw (14.8.4)
    assert lines(s)[0] == ("plan", [2, 1])
    assert steps(s, "move")[0] == {
        "step": "move",
        "card": P_PLAIN,
        "from": ["deck"],
        "to": ["plan"],
    }


def test_14_5_5_step_3_off_map_directions_are_skipped_clockwise() -> None:
    """From B = (2, 1), FR, R and BR are off the map: strength 5 (FR) lands on BL."""
    t = atable(2, "AC")
    bpos(t, (2, 1), "PIL016")
    deck_top(t, "PIL010")  # strength 5
    s = turn(t)
    assert lines(s)[0] == ("plan", [1, 2])
    assert "it points BL" in texts(s)[0]


def test_14_5_5_r41_r49_an_ace_plan_card_counts_strength_1() -> None:
    t = atable(2, "AC")
    bpos(t, (2, 3), "PIL016")
    deck_top(t, "PIL046")
    s = turn(t)
    assert lines(s)[0] == ("plan", [1, 4])  # AC's 1 is BL
    assert s.turn.revealed  # 11.2.1 d


def test_14_5_5_step_5_without_a_card_to_turn_the_automa_counts_1() -> None:
    t = atable(2, "AC")
    bpos(t, (2, 3), "PIL016")
    hand(t, 0, list(t.deck))  # nothing left to draw: deck and discard empty
    s = turn(t)
    assert s.plan is None
    assert lines(s)[:2] == [("plan", None), ("plan", [1, 4])]


def test_14_10_3_r45_a1_influences_a_freemason_target() -> None:
    t, s = ac("PIL001", [])  # MAG/NOB, FM
    assert ("a1", [2, 1]) in lines(s)
    assert slots(s, R) == [BOT, None, None]
    assert s.token == idx(t, R)


def test_14_10_3_a2_fills_the_open_slots_then_ousts() -> None:
    t, s = ac("PIL001", [0])
    assert [r for r, _ in lines(s)[1:3]] == ["a2", "a2"]
    assert steps(s, "oust_end")[0]["winner"] == BOT  # 3 disks around against 1
    assert slots(s, R) == [None, BOT, BOT]
    assert kinds(s) == "gain"  # the defender names the favor (7.6.8 D)
    assert s.token == idx(t, (2, 3))
    s = act(s, gain("SCH"))
    assert s.token == idx(t, R)  # R55, once the step resumes


def test_14_10_3_b_r60_swaps_a_plain_target_for_a_rosicrucian_plan_card() -> None:
    _t, s = ac("PIL024", [], plan="PIL011")  # PIL011: SCH/CLE, RC, strength 4
    assert ("b", [2, 1]) in lines(s)
    assert card_at(s, R) == "PIL011"
    assert s.plan is None
    assert s.discard[0] == "PIL024"
    assert slots(s, R) == [BOT, None]


def test_14_10_3_c_influences_a_target_sharing_a_faction_with_b() -> None:
    _t, s = ac("PIL005", [])  # ART/NOB, not FM or RC
    assert ("c", [2, 1]) in lines(s)
    assert slots(s, R)[0] == BOT


def test_14_10_3_d_r60_swaps_when_the_plan_card_shares_a_faction_with_b() -> None:
    _t, s = ac("PIL024", [], plan="PIL004")  # PIL004: MAG/PRO, shares PRO with B
    assert ("d", [2, 1]) in lines(s)
    assert card_at(s, R) == "PIL004"


def test_14_10_3_e1_ousts_a_plain_target_with_human_disks() -> None:
    _t, s = ac("PIL024", [0])
    assert ("e1", [2, 1]) in lines(s)
    assert steps(s, "oust")


def test_14_10_3_r53_r61_e2_expels_a_plain_target_with_the_plan_card() -> None:
    _t, s = ac("PIL024", [])
    assert ("e2", [2, 1]) in lines(s)
    assert card_at(s, R) == P_PLAIN
    assert s.plan is None


def test_14_10_5_r62_the_f_search_acts_from_t0_on_its_first_neighbour_that_holds() -> None:
    """T0 = (2, 1), a Freemason card full of bot disks. Clockwise from R: R and BR are off
    the map, BL is (1, 2); with T0 (MAG/NOB) as B, PIL005 (ART/NOB) there matches c)."""
    t = atable(2, "AC")
    bpos(t, (2, 3), "PIL016")
    put(t, R, "PIL001", [BOT, BOT, BOT])
    put(t, (1, 2), "PIL005", [])
    deck_top(t, P_PLAIN)
    s = turn(t)
    assert lines(s)[1:3] == [("f2", [1, 2]), ("c", [1, 2])]
    assert slots(s, (1, 2))[0] == BOT
    assert s.token == idx(t, (1, 2))  # to T0, then R55 to the final target


def test_14_10_5_r62_with_no_neighbour_to_act_on_the_automa_extorts_t0() -> None:
    t = atable(2, "AC")
    bpos(t, (2, 3), "PIL016")
    put(t, R, "PIL001", [BOT, BOT, BOT])
    deck_top(t, P_PLAIN)
    s = turn(t)  # (1, 2) and (3, 2) are face down: skipped
    assert [r for r, _ in lines(s)[1:3]] == ["f2", "f2"]
    assert s.token == idx(t, R)
    assert idx(t, R) in s.turn.yielded
    assert fav(s, BOT) == {"NOB": 1, "MAG": 1}  # PIL001 is rank II


def test_14_10_4_worked_example_aw_swaps_influences_pays_its_rider_and_moves_the_token() -> None:
    """[seed 856]: strength 4 is AW's L, off the map from its placard; clockwise the
    next is FL, (0, 5). T there holds no human disk and shares no faction with B (the
    contact's NOB, MAG, SCH), but P does: 3d. Swap (C), 1 free disk (D), the rider pays
    1 matching favor for 1 more (E), the token moves to T (F)."""
    t = atable(2, "AW")
    put(t, (0, 5), "PIL009", [])  # ART/PRO
    deck_top(t, "PIL017")  # MAG/NOB, strength 4
    favor(t, BOT, MAG=1, ART=2)
    s = turn(t)
    assert lines(s)[:2] == [("plan", [0, 5]), ("d", [0, 5])]
    assert card_at(s, (0, 5)) == "PIL017"  # C
    assert s.discard[0] == "PIL009"
    assert slots(s, (0, 5)) == [BOT, BOT, None, None]  # D and E
    assert fav(s, BOT) == {"ART": 2}  # the rider paid the MAG, never the ART
    assert s.token == idx(t, (0, 5))  # F
    assert "1 free disk, then 1 more paying 1 MAG (its rider)" in texts(s)[1]


def test_14_10_4_a_aw_influences_an_open_ace_and_ousts_a_human_crown() -> None:
    t = atable(2, "AW")
    bpos(t, (2, 3), "PIL016")
    put(t, (2, 5), "PIL048", [])  # AW's 4 is L = (2, 5): the CLE Ace
    deck_top(t, P_PLAIN)
    favor(t, BOT, CLE=3)
    s = turn(t)
    assert ("a1", [2, 5]) in lines(s)
    assert slots(s, (2, 5)) == [BOT, BOT]  # the rider paid 1 CLE for the second slot
    assert fav(s, BOT) == {"CLE": 2}
    t = atable(2, "AW")
    bpos(t, (2, 3), "PIL016")
    put(t, (2, 5), "PIL056", [0])
    deck_top(t, P_PLAIN)
    s = turn(t)
    assert ("a2", [2, 5]) in lines(s)
    assert slots(s, (2, 5)) in ([None, None, None], [0, None, None])  # no fill for AW


def test_14_10_4_b_aw_swaps_for_an_ace_plan_card() -> None:
    t = atable(2, "AW")
    bpos(t, (2, 3), "PIL016")
    put(t, BL, "PIL024", [])  # an Ace PLAN card counts 1 (R49): AW's 1 is BL
    deck_top(t, "PIL051")
    s = turn(t)
    assert ("b", [1, 4]) in lines(s)
    assert card_at(s, BL) == "PIL051"


def test_14_9_ac_plot_2_and_aw_plot_2_count_controlled_cards_of_their_kind() -> None:
    t = atable(2, "AC")
    cells = [(0, 3), (0, 5), (1, 2), (1, 4), (1, 6)]
    for pos, card in zip(cells, ("PIL001", "PIL002", "PIL003", "PIL007", "PIL008"), strict=True):
        put(t, pos, card, [BOT])
    assert victory(t, BOT) == 2
    put(t, (1, 6), "PIL008", [BOT, 0])  # a tie: nobody controls it (2.7)
    assert victory(t, BOT) is None
    t = atable(2, "AW")
    for pos, card in zip(cells, ("PIL046", "PIL047", "PIL052"), strict=False):
        put(t, pos, card, [BOT])
    assert victory(t, BOT) == 2


def test_14_9_2_a_lodge_set_of_5_the_automa_controls_wins_plot_1() -> None:
    """Five NOB cards in a row of lodge: the automa's 3 disks on them beat the human's 2
    on a sixth NOB card of the same lodge, which a lodge set may leave out (R09)."""
    t = atable(2, "AC")
    nob = [(2, 1), (2, 3), (2, 5), (2, 7), (1, 6)]
    for pos, card in zip(nob, ("PIL005", "PIL017", "PIL019", "PIL021", "PIL033"), strict=True):
        put(t, pos, card, [BOT] if pos in ((2, 1), (2, 3), (2, 5)) else [])
    put(t, (3, 6), "PIL029", [0, 0, 0, 0])  # SCH/NOB next to (2, 5) and (2, 7)
    assert victory(t, BOT) == 1


def test_p39_f2_needs_a_full_target_without_it_r46_applies() -> None:
    """T (PIL001, FM) holds only a bot disk and has open slots, but all 20 bot disks are
    on the map: a1 and f1 cannot be done, f2's "it has none" is false: R46."""
    t = atable(2, "AC")
    bpos(t, (2, 3), "PIL016", disks=4)
    put(t, R, "PIL001", [BOT])
    for pos, card, n in (
        ((0, 3), "PIL017", 4),
        ((0, 5), "PIL020", 4),
        ((4, 3), "PIL022", 4),
        ((4, 5), "PIL029", 3),
    ):
        put(t, pos, card, [BOT] * n)
    assert t.disks[BOT] == 0
    deck_top(t, P_PLAIN)
    s = turn(t)
    assert lines(s)[1][0] == "R46"


def test_r78_p40_one_advance_plays_the_automas_whole_action_phase() -> None:
    from engine.pax import engine as E
    from tests.engine.pax.support import ready

    t = atable(2, "AW")
    bpos(t, (2, 3), "PIL016")
    s = ready(t, "turn")  # its Event phase: then the automa's step is next
    assert s.program == "automa"
    assert E.to_act(s) is None
    before = len(s.log)
    s = E.advance(s)
    assert len(s.log) == before + 1  # one log entry (H.6)
    assert s.program == "plot_check"
    assert lines(s)[0][0] == "plan"


def test_r01_the_automa_never_exchanges_aws_rider_pays_matching_tokens_only() -> None:
    """R01, 14.6: bots never exchange. The 14.10.4 example with 3 ART (a human could
    exchange them for any unit, 2.2.5) and no MAG or NOB: the rider pays nothing and AW
    places its free disk alone; with 1 MAG more it pays that one and stops."""
    for extra, placed, left in (({}, 1, {"ART": 3}), ({"MAG": 1}, 2, {"ART": 3})):
        t = atable(2, "AW")
        put(t, (0, 5), "PIL009", [])  # ART/PRO
        deck_top(t, "PIL017")  # MAG/NOB, strength 4
        favor(t, BOT, ART=3, **extra)
        s = turn(t)
        assert card_at(s, (0, 5)) == "PIL017"
        assert slots(s, (0, 5)).count(BOT) == placed
        assert fav(s, BOT) == left
        assert not [x for x in steps(s, "favor") if x["from"] == BOT and x["n"] == 3]
