"""The seed's worked examples that 16.4 cites, as fixtures on M19 (3 seats) with
hand-made cards. Seed "seat-2" gives seat 0 the contact C15 (PRO, MAG, SCH), the
placard of Scout example A and Extort example A. 14.10.4 (the AW automa) is in
test_automa_plan.py."""

from __future__ import annotations

from engine.pax import engine as E
from engine.pax.phases import scoring_ranking
from engine.pax.state import State, Table, thaw
from tests.engine.pax.support import (
    act,
    card_at,
    court,
    fav,
    favor,
    gain,
    hand,
    kinds,
    options,
    put,
    ready,
    run_auto,
    slots,
    table,
)

SEED = "seat-2"


def _pay_factions(state: State) -> set[str]:
    return {o["faction"] for o in options(state) if o["type"] == "pay" and not o["exchange"]}


def test_7_1_scout_example_a_matching_favor_of_three_acting_cards() -> None:
    """[seed 247-257]: a SCH/PRO card, a MAG/PRO card and a PRO/MAG/SCH placard."""
    for acting, card, expected in (
        ((3, 3), "PIL018", {"PRO", "SCH"}),
        ((3, 3), "PIL004", {"MAG", "PRO"}),
        ("placard", None, {"PRO", "MAG", "SCH"}),
    ):
        t = table(3, SEED)
        if card is not None:
            put(t, (3, 3), card, [0])
        favor(t, 0, NOB=1, PRO=1, MAG=1, ART=1, SCH=1, CLE=1)
        target = [4, 2] if card is not None else [4, 4]
        ref = [3, 3] if acting != "placard" else "placard"
        s = act(ready(t), {"type": "scout", "by": "main", "acting": ref, "target": target})
        assert kinds(s) == "pay"
        assert _pay_factions(s) == expected


def test_7_1_scout_takes_the_card_and_puts_a_hand_card_face_up() -> None:
    t = table(3, SEED)
    hand(t, 0, ["PIL046"])
    favor(t, 0, PRO=1)
    scouted = t.cards[t.g.index[(4, 4)]]
    s = act(ready(t), {"type": "scout", "by": "main", "acting": "placard", "target": [4, 4]})
    assert kinds(s) == "place"
    assert s.pending[-1][2] == (scouted,)
    s = act(s, {"type": "place", "card": "PIL046"})
    assert card_at(s, (4, 4)) == "PIL046"
    assert s.up[s.g.index[(4, 4)]]
    assert s.hands[0] == (scouted,)
    assert s.turn.revealed  # an Ace put face up (11.2.1 a)


def test_7_2_7_two_open_slots_of_a_rank_iii_card_cost_six() -> None:
    """[seed 277-287]: slots 3 and 4 open cost 3 + 3."""
    t = table(3, SEED)
    put(t, (4, 4), "PIL016", [0, 1])
    favor(t, 0, NOB=3, PRO=3)
    s = act(ready(t), {"type": "influence", "by": "main", "target": [4, 4], "n": 2})
    payments = 0
    while kinds(s) == "pay" or (E.to_act(s) is None and payments == 0):
        s = act(s, options(s)[0])
        payments += 1
    assert sum(s.favor[0]) == 0
    assert slots(s, (4, 4)) == [0, 1, 0, 0]


def test_7_3_7_extort_examples_a_and_b() -> None:
    """A: the PRO/MAG/SCH placard gives PRO 1, MAG 1, SCH 1. B: ART/SCH II gives both."""
    t = table(3, SEED)
    s = act(ready(t), {"type": "extort", "by": "main", "target": "placard"})
    assert fav(s, 0) == {"PRO": 1, "MAG": 1, "SCH": 1}
    t = table(3, SEED)
    put(t, (2, 4), "PIL015", [0])
    s = act(ready(t), {"type": "extort", "by": "main", "target": [2, 4]})
    assert fav(s, 0) == {"ART": 1, "SCH": 1}


def test_7_3_7_extort_example_c_neighbours_of_the_same_rank_whisper() -> None:
    """C: a CLE/NOB card; two rank II neighbours with your disks give their value too."""
    t = table(3, SEED)
    put(t, (2, 4), "PIL025", [0])  # II NOB/CLE
    put(t, (2, 2), "PIL002", [0])  # II NOB/SCH, a neighbour
    put(t, (1, 5), "PIL033", [0])  # II NOB/ART, a neighbour
    put(t, (3, 5), "PIL016", [0])  # III: another rank, no whisper
    s = act(ready(t), {"type": "extort", "by": "main", "target": [2, 4]})
    assert fav(s, 0) == {"NOB": 3, "CLE": 1, "SCH": 1, "ART": 1}
    assert set(s.turn.yielded) == {s.g.index[p] for p in ((2, 4), (2, 2), (1, 5))}


def test_7_3_7_extort_example_d_conspire_pays_the_other_disk() -> None:
    """D: Blue extorts a rank III card with 1 Red disk: gains 3, gives Red 1, Blue's choice."""
    t = table(3, SEED)
    put(t, (2, 4), "PIL016", [0, 1])  # III NOB/PRO
    s = act(ready(t), {"type": "extort", "by": "main", "target": [2, 4]}, gain("NOB"))
    assert fav(s, 0) == {"NOB": 2, "PRO": 1}
    assert kinds(s) == "conspire"
    s = act(s, {"type": "conspire", "faction": "PRO"})
    assert fav(s, 0) == {"NOB": 2}
    assert fav(s, 1) == {"PRO": 1}


def test_7_4_4_organize_example_three_steps_of_scholars() -> None:
    """[seed 360-373]: pay 1 SCH; SCH/NOB -> CLE/ART (stops there); SCH/MAG -> SCH/PRO
    (1 open slot) -> MAG/SCH."""
    t = table(3, SEED)
    put(t, (1, 3), "PIL002", [0])  # NOB/SCH
    put(t, (1, 5), "PIL038", [])  # CLE/ART
    put(t, (3, 1), "PIL037", [0])  # SCH/MAG
    put(t, (3, 3), "PIL012", [1, 1])  # SCH/PRO, one open slot
    put(t, (3, 5), "PIL039", [])  # MAG/SCH
    for p in ((0, 2), (0, 4), (2, 2), (2, 4), (2, 0), (4, 2), (4, 4), (2, 6), (4, 6), (1, 1)):
        put(t, p, t.cards[t.g.index[p]], up=False)
    favor(t, 0, SCH=1)
    s = act(ready(t), {"type": "organize", "by": "main", "faction": "SCH", "target": None})
    assert fav(s, 0) == {}
    s = act(s, {"type": "move", "from": [1, 3], "to": [1, 5]})
    assert {"type": "move", "from": [1, 5], "to": [1, 3]} not in options(s)
    s = act(
        s,
        {"type": "move", "from": [3, 1], "to": [3, 3]},
        {"type": "move", "from": [3, 3], "to": [3, 5]},
    )
    assert slots(s, (1, 5))[0] == 0
    assert slots(s, (3, 3)) == [1, 1, None]
    assert slots(s, (3, 5))[0] == 0
    assert kinds(s) == "action"


def test_7_5_expel_from_its_own_rules() -> None:
    """R85: pay 1 matching favor per disk; the old card to the discard; the hand card in
    its place; the disks move onto it; those that do not fit go home."""
    t = table(3, SEED)
    put(t, (4, 4), "PIL016", [0, 0, 0])  # three disks
    hand(t, 0, ["PIL004"])  # rank I: 2 slots
    favor(t, 0, PRO=3)
    s = act(
        ready(t),
        {"type": "expel", "by": "main", "acting": "placard", "target": [4, 4], "card": "PIL004"},
    )  # three PRO, the only way to pay: taken by the engine (R79)
    assert fav(s, 0) == {}
    assert card_at(s, (4, 4)) == "PIL004"
    assert s.discard[0] == "PIL016"
    assert slots(s, (4, 4)) == [0, 0]
    assert s.disks[0] == 18  # 3 left the old card, 2 fit the new one


def _oust_table(blue_card: str, red_card: str) -> State:
    t = table(3, SEED)
    put(t, (2, 4), "PIL016", [1, 0])  # the middle card: Red 1, Blue 1
    put(t, (1, 3), "PIL042", [0, 0, 1, 1])  # PRO/MAG
    put(t, (1, 5), "PIL044", [0, 0, 1, 1])
    put(t, (2, 2), "PIL040", [1])
    hand(t, 0, [blue_card])
    hand(t, 1, [red_card])
    favor(t, 0, PRO=1)
    return ready(t)


def test_7_6_10_oust_example_a_the_higher_total_wins() -> None:
    """[seed 411-451]: Blue pays 1 PRO; init 5 against Red's 6 (Red favoured); Blue plays
    6, Red plays 4: 11 against 10, Blue wins; Red's disk goes home; a cube on the card.
    P-17: the defender names the favor it gains, seat 1's own decision."""
    s = _oust_table("PIL007", "PIL004")
    s = act(
        s,
        {
            "type": "oust",
            "by": "main",
            "acting": [1, 3],
            "target": [2, 4],
            "defender": 1,
            "k": 1,
        },
    )
    assert s.oust is not None
    assert s.oust.init == (5, 6)
    assert s.oust.favoured == 1
    s = act(s, {"type": "oust_next", "choice": "call"})
    assert slots(s, (2, 4)) == [None, 0, None, None]
    assert kinds(s) == "gain"
    assert E.to_act(s) == 1
    s = act(s, gain("CLE"))
    assert fav(s, 1) == {"CLE": 1}
    assert s.cubes == (s.g.index[(2, 4)],)


def test_7_6_10_oust_example_b_the_underdogs_ace_wins() -> None:
    """B: Blue, the underdog, plays an Ace against Red's 6: the Dagger wins."""
    s = _oust_table("PIL047", "PIL038")
    s = act(
        s,
        {"type": "oust", "by": "main", "acting": [1, 3], "target": [2, 4], "defender": 1, "k": 1},
        {"type": "oust_next", "choice": "call"},
    )
    assert slots(s, (2, 4)) == [None, 0, None, None]
    assert any(st["winner"] == 0 for e in s.log for st in e["steps"] if st["step"] == "oust_end")


def test_8_7_chain_quick_favor_then_a_shared_faction_buff_then_a_crown() -> None:
    """[seed 511-521]: Quick Favor starts the chain; a card sharing Magistrates gives a
    buff; a Crown joins whatever its faction, gives a main action and ends the chain."""
    t = table(3, SEED)
    hand(t, 0, ["PIL004", "PIL039", "PIL056", "PIL003"])
    s = act(ready(t), {"type": "scheme", "card": "PIL004", "use": "quick"}, gain("MAG"))
    s = act(s, {"type": "scheme", "card": "PIL039", "use": "ability"})
    assert s.turn.buffs == ("G12",)
    s = act(s, {"type": "scheme", "card": "PIL056", "use": "ability"})
    assert s.turn.main_allowed == 3
    assert s.turn.chain_ended
    assert not [o for o in options(s) if o["type"] == "scheme"]


def _all_faction_cards(t: Table) -> None:
    t.fcards = [[fc, None, None, False] for fc in t.g.cat.data.faction_cards]
    t.faction_box = []


def test_9_8_claiming_faction_cards_with_the_largest_lodges() -> None:
    """[seed 550-559]: Blue has 4 disks on a Professions lodge; Red controls a
    Magistrates lodge: each may claim that faction's card."""
    t = table(3, SEED)
    _all_faction_cards(t)
    put(t, (3, 1), "PIL009", [0, 0])  # ART/PRO
    put(t, (3, 3), "PIL012", [0])  # SCH/PRO
    put(t, (3, 5), "PIL043", [0])  # NOB/PRO
    put(t, (0, 2), "PIL023", [1])  # MAG/SCH
    put(t, (0, 4), "PIL036", [1])  # MAG/CLE
    put(t, (0, 6), "PIL019", [1])  # NOB/MAG
    s = ready(t)
    claims = {o["card"] for o in options(s) if o["type"] == "claim_faction"}
    assert claims == {"FC-PRO"}
    s = act(s, {"type": "claim_faction", "card": "FC-PRO"})
    assert ("FC-PRO", 0, 0, False) in s.fcards
    t = thaw(s)
    t.active = 1
    t.turn.claimed_faction = False
    claims = {o["card"] for o in options(ready(t)) if o["type"] == "claim_faction"}
    assert claims == {"FC-MAG"}


def _nobility_lodge(t: Table, seat: int) -> None:
    for pos, card in (
        ((0, 2), "PIL016"),
        ((0, 4), "PIL029"),
        ((0, 6), "PIL031"),
        ((1, 7), "PIL017"),
        ((1, 3), "PIL005"),
    ):
        put(t, pos, card, [seat])


def test_10_6_examples_a_b_one_lodge_meets_both_plots_but_counts_once() -> None:
    """B: a Nobility lodge meets P01 and P12, but P01's set lies inside P12's and it is
    the same lodge: after claiming P01, P12 cannot be claimed alongside it."""
    t = table(3, SEED)
    t.plot_deck.extend(p for p in t.public_plots if p not in ("P01", "P12"))
    for p in ("P01", "P12"):
        if p in t.plot_deck:
            t.plot_deck.remove(p)
        for seat in range(3):
            if t.plot[seat] == p:
                t.plot[seat] = t.plot_deck.pop()
    t.public_plots = ["P01", "P12"]
    _nobility_lodge(t, 0)
    s = ready(t)
    claims = {o["plot"] for o in options(s) if o["type"] == "claim_plot"}
    assert claims == {"P01", "P12"}
    s = act(s, {"type": "claim_plot", "plot": "P01"})
    t = thaw(s)
    t.turn.claimed_plot = False
    assert "P12" not in {o.get("plot") for o in options(ready(t))}


def test_10_6_example_c_two_lodges_meet_two_plots_and_win() -> None:
    """C: P01 with an Artists lodge, P12 with a Nobility lodge: two plots, one claim a
    turn; holding both, the Plot Check wins the game (11.1.3)."""
    t = table(3, SEED)
    t.plot_deck.extend(p for p in t.public_plots if p not in ("P01", "P12"))
    for p in ("P01", "P12"):
        if p in t.plot_deck:
            t.plot_deck.remove(p)
        for seat in range(3):
            if t.plot[seat] == p:
                t.plot[seat] = t.plot_deck.pop()
    t.public_plots = ["P01", "P12"]
    _nobility_lodge(t, 0)
    for pos, card in (
        ((3, 1), "PIL026"),
        ((4, 2), "PIL040"),
        ((4, 4), "PIL020"),
        ((4, 6), "PIL045"),
    ):
        put(t, pos, card, [0])
    s = act(ready(t), {"type": "claim_plot", "plot": "P01"})
    assert {o.get("plot") for o in options(s)} & {"P12"} == set()  # one claim per turn
    t = thaw(s)
    t.turn.claimed_plot = False
    s = act(ready(t), {"type": "claim_plot", "plot": "P12"}, {"type": "end"})
    s = run_auto(s)
    assert E.is_over(s)
    result = E.result(s)
    assert result is not None
    assert result["reason"] == "plot"
    assert result["winner_seats"] == [0]
    assert result["plots"] == ["P01", "P12"]


def test_11_3_court_example_take_slot_2_then_the_deck_then_refresh() -> None:
    """[seed 678-692]: take Court card 2 and the deck's top; discard the card under the
    Chamberlain (slot 1); the Chamberlain moves to slot 2; fill slots 1 and 2."""
    t = table(3, SEED)
    court(t, ["PIL001", "PIL002", "PIL003", "PIL004", "PIL005"])
    hand(t, 0, ["PIL046", "PIL047"])
    for other in (1, 2):
        hand(t, other, t.deck[:4])
    top = t.deck[0]
    s = act(ready(t), {"type": "end"})
    s = run_auto(s)
    assert kinds(s) == "court"
    s = act(s, {"type": "court", "cards": ["PIL002"]})
    assert set(s.hands[0]) == {"PIL046", "PIL047", "PIL002", top}
    assert s.discard[0] == "PIL001"
    assert s.chamberlain == 1
    assert s.court[2:] == ("PIL003", "PIL004", "PIL005")
    assert None not in s.court


def test_13_5_scoring_example_the_third_player_wins() -> None:
    """[seed 753-767]: per-faction sums 11, 5 and 12: the third player wins."""
    scores = [sum((3, 4, 0, 1, 2, 1)), sum((2, 1, 0, 1, 0, 1)), sum((0, 2, 3, 3, 2, 2))]
    assert scores == [11, 5, 12]
    assert scoring_ranking(scores, [0, 0, 0]) == [[2], [0], [1]]
