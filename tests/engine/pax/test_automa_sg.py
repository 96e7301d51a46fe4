"""Count of St. Germain (14.10.1): each line of its script on a hand-made M14 table,
its direction priority (14.5.4), the token (14.7.7, 14.7.8, R55) and R46."""

from __future__ import annotations

from engine.pax import engine as E
from tests.engine.pax.automa_support import (
    BL,
    BR,
    FL,
    FR,
    L,
    R,
    atable,
    bpos,
    deck_top,
    lines,
    texts,
    turn,
)
from tests.engine.pax.support import act, card_at, fav, favor, hand, idx, kinds, put, slots, steps

BOT = 1
SIX = (FL, FR, R, BR, BL, L)
NOT_NOB_PRO = ("PIL003", "PIL007", "PIL008", "PIL011", "PIL015", "PIL020")
"""Face-up cards sharing no faction with PIL016 (NOB/PRO)."""


def test_14_10_1_a_r48_r51_scouts_the_highest_numbered_face_down_neighbour() -> None:
    t = atable(2, "SG")
    bpos(t, (2, 3), "PIL016")
    s = turn(t)
    assert lines(s) == [("a", [3, 4])]  # FL is numbered 6, the highest (Appendix G)
    assert s.up[idx(t, FL)]
    assert s.token == idx(t, (2, 3))  # no bot disk on the scouted card: the token stays
    t = atable(2, "SG")
    bpos(t, (2, 3), "PIL016")
    put(t, FL, "PIL043", [])
    s = turn(t)
    assert lines(s) == [("a", [3, 2])]  # FR, numbered 5


def test_14_10_1_b1_r52_influences_then_extorts_a_neighbour_sharing_a_faction() -> None:
    t = atable(2, "SG")
    bpos(t, (2, 3), "PIL016")
    for pos, card in zip(SIX, ("PIL043", *NOT_NOB_PRO[1:]), strict=True):
        put(t, pos, card, [])
    s = turn(t)
    assert [r for r, _ in lines(s)] == ["b1", "b1"]  # the Influence line, then its Extort
    assert slots(s, FL) == [BOT, None, None]
    assert fav(s, BOT) == {"NOB": 1, "PRO": 1}  # PIL043 is NOB/PRO, rank II
    assert s.token == idx(t, FL)  # R55: the final target holds a bot disk
    assert "influences PIL043 at (3, 4): 1 free disk" in texts(s)[0]


def test_14_3_3_r44_p38_b_passes_over_a_full_neighbour_to_the_next_number() -> None:
    t = atable(2, "SG")
    bpos(t, (2, 3), "PIL016")
    put(t, FL, "PIL046", [BOT, BOT])  # NOB Ace, full of bot disks: no sub-option holds
    put(t, FR, "PIL043", [])
    for pos, card in zip(SIX[2:], NOT_NOB_PRO, strict=False):
        put(t, pos, card, [])
    s = turn(t)
    assert lines(s)[0] == ("b1", [3, 2])


def test_14_10_1_b2_r54_p41_ousts_a_human_crown_next_to_b() -> None:
    """A human's Crown has no slot the bot can use (2.6.9): b2. R54: the automa pays
    all its favor, +1 strength each; the human commits, then the deck's top is turned."""
    t = atable(2, "SG")
    bpos(t, (2, 3), "PIL016")
    put(t, FL, "PIL052", [0])  # the NOB Crown with a human disk
    for pos, card in zip(SIX[1:], NOT_NOB_PRO, strict=False):
        put(t, pos, card, [])
    favor(t, BOT, MAG=2)
    hand(t, 0, ["PIL001", "PIL046"])
    deck_top(t, "PIL019")  # strength 5
    s = turn(t)
    assert kinds(s) == "oust_card"
    assert E.to_act(s) == 0
    assert s.oust is not None
    assert (s.oust.attacker, s.oust.defender, s.oust.k) == (BOT, 0, 1)
    assert s.oust.init == (1 + 2, 1)  # B's disk next to the Crown, +2 favor spent
    assert s.oust.acting == idx(t, (2, 3))  # P-41: B acts
    assert s.favor[BOT] == (0,) * 6
    assert s.deck[0] == "PIL019"  # not turned before the human commits (15.2.3)
    s = act(s, {"type": "oust_card", "card": "PIL001"})  # 3 + 1 = 4 against 3 + 5 = 8
    assert steps(s, "oust")[-1]["cards"] == ["PIL019", "PIL001"]
    assert steps(s, "oust")[-1]["nonces"][0] is None  # P-36
    assert steps(s, "oust_end")[-1]["winner"] == BOT
    assert slots(s, FL) == [None, None, None]
    assert kinds(s) == "gain"
    assert E.to_act(s) == 0
    s = act(s, {"type": "gain", "faction": "CLE"})
    assert fav(s, 0) == {"CLE": 1}
    assert s.cubes == ()  # R54: no cube
    assert s.program == "plot_check"


def test_14_10_1_b2_the_human_underdog_wins_with_an_ace() -> None:
    t = atable(2, "SG")
    bpos(t, (2, 3), "PIL016")
    put(t, FL, "PIL052", [0])
    for pos, card in zip(SIX[1:], NOT_NOB_PRO, strict=False):
        put(t, pos, card, [])
    favor(t, BOT, MAG=2)
    hand(t, 0, ["PIL001", "PIL046"])
    deck_top(t, "PIL019")
    s = act(turn(t), {"type": "oust_card", "card": "PIL046"})  # the Dagger (7.6.5)
    assert steps(s, "oust_end")[-1]["winner"] == 0
    assert slots(s, FL) == [0, None, None]
    assert s.turn.revealed  # an Ace was played in an Oust (11.2.1 c)


def test_14_10_1_c1_expels_a_neighbour_sharing_no_faction_from_the_deck() -> None:
    t = atable(2, "SG")
    bpos(t, (2, 3), "PIL016")
    for pos, card in zip(SIX, NOT_NOB_PRO, strict=True):
        put(t, pos, card, [])
    deck_top(t, "PIL024")
    s = turn(t)
    assert lines(s) == [("c1", [3, 4])]
    assert card_at(s, FL) == "PIL024"
    assert s.discard[0] == "PIL003"
    assert s.token == idx(t, (2, 3))


def test_14_10_1_c2_ousts_a_neighbour_sharing_no_faction_with_human_disks() -> None:
    t = atable(2, "SG")
    bpos(t, (2, 3), "PIL016")
    for pos, card in zip(SIX, NOT_NOB_PRO, strict=True):
        put(t, pos, card, [0] if pos == FL else [])
    s = turn(t)
    assert lines(s)[0][0] == "c2"
    assert s.oust is None  # the human had no card: "no card" was forced (R79)
    assert steps(s, "oust")[-1]["cards"][1] is None


NOB_PRO_SMALL = ("PIL046", "PIL047", "PIL006", "PIL009", "PIL013", "PIL018")
"""Two-slot cards showing NOB or PRO: neighbours sharing a faction with PIL016."""


def test_14_10_1_d_moves_the_token_next_to_human_disks_and_extorts_there() -> None:
    t = atable(2, "SG")
    bpos(t, (2, 3), "PIL016")
    for pos, card in zip(SIX, NOB_PRO_SMALL, strict=True):
        put(t, pos, card, [BOT, BOT])
    put(t, (0, 3), "PIL030", [0])  # next to BR (1, 2) and BL (1, 4)
    s = turn(t)
    assert lines(s)[0] == ("d", [1, 4])  # BL is numbered 2, BR 1: BL
    assert s.token == idx(t, BL)
    extorted = [target for rule, target in lines(s)[1:3]]
    assert extorted == [[1, 4], "placard"]
    assert idx(t, BL) in s.turn.yielded
    assert -1 in s.turn.yielded


def test_14_3_6_r46_without_a_z_the_automa_extorts_b_then_its_placard() -> None:
    t = atable(2, "SG")
    bpos(t, (2, 3), "PIL016")
    for pos, card in zip(SIX, NOB_PRO_SMALL, strict=True):
        put(t, pos, card, [BOT, BOT])
    s = turn(t)
    assert [r for r, _ in lines(s)[:3]] == ["R46", "R46", "R46"]
    assert [target for _, target in lines(s)[1:3]] == [[2, 3], "placard"]
    # PIL016 (rank III) whispers to no neighbour: they are rank I and Aces (7.3.3)
    assert fav(s, BOT) == {"NOB": 3, "PRO": 1, "MAG": 1, "SCH": 1}  # 14.6: the top again


def test_14_7_8_the_token_check_moves_the_token_to_the_most_bot_disks() -> None:
    t = atable(2, "SG")
    put(t, (2, 3), "PIL016", [])
    t.token = idx(t, (2, 3))
    put(t, (4, 5), "PIL043", [BOT, BOT])
    put(t, (1, 2), "PIL044", [BOT, BOT])
    s = turn(t)
    assert lines(s)[0] == ("token", [1, 2])  # a tie: reading order
    assert steps(s, "token")[0]["at"] == [1, 2]
    t = atable(2, "SG")
    put(t, (2, 3), "PIL016", [])
    t.token = idx(t, (2, 3))
    s = turn(t)
    assert lines(s)[0] == ("token", "placard")


def test_r55_p33_from_its_placard_sg_influences_a_card_sharing_a_contact_faction() -> None:
    """B is the placard: its neighbours are FL (0, 5) and FR (0, 3); its factions are the
    contact card's NOB, MAG, SCH (14.4)."""
    t = atable(2, "SG")
    put(t, (0, 5), "PIL003", [])  # ART/SCH: shares SCH
    put(t, (0, 3), "PIL027", [])  # ART/CLE: shares nothing
    s = turn(t)
    assert lines(s)[0] == ("b1", [0, 5])
    assert s.token == idx(t, (0, 5))
    assert fav(s, BOT) == {"ART": 1}  # 14.6: rank I picks its top faction (ART)
