"""The house rulings P-8 onward of docs/pax.md, and more of Appendices C and D."""

from __future__ import annotations

import pytest

from engine.pax import engine as E
from engine.pax import plots as P
from engine.pax.phases import court_options
from engine.pax.piles import draw
from engine.pax.state import Table, thaw
from tests.engine.pax.support import (
    act,
    card_at,
    court,
    fav,
    favor,
    frozen_turn,
    gain,
    give_card,
    hand,
    kinds,
    options,
    oust_table,
    pay,
    put,
    ready,
    run_auto,
    slots,
    steps,
    table,
    types_of,
)

SEED = "seat-2"  # seat 0's contact is C15: PRO, MAG, SCH


# --- house rulings of docs/pax.md --------------------------------------------------------


def test_p8_a_reshuffle_shuffles_the_discard_pile_top_first_by_its_stream() -> None:
    from engine.pax.rng import shuffled

    t = table(3, SEED)
    pile = t.deck[1:]
    t.discard = list(pile)
    del t.deck[1:]
    draw(t)
    assert t.deck == list(shuffled(t.g.seed, "lum/reshuffle/1", tuple(pile)))
    assert t.discard == []


def test_p11_two_court_cards_are_listed_in_slot_order() -> None:
    t = table(3, SEED)
    court(t, ["PIL001", "PIL002", "PIL003", "PIL004", "PIL005"])
    t.chamberlain = 2
    favor(t, 0, NOB=1)
    pairs = [o["cards"] for o in court_options(t, 2) if len(o["cards"]) == 2]
    assert pairs == [
        ["PIL001", "PIL003"],
        ["PIL002", "PIL003"],
        ["PIL003", "PIL004"],
        ["PIL003", "PIL005"],
    ]


def test_p12_a_view_holds_the_recent_log_and_view_log_any_part() -> None:
    from engine.pax.bots import play_game
    from engine.pax.view import view, view_log

    s = play_game(3, "p12", round_cap=4).state
    v = view(s, 0)
    start = v["log_start"]
    assert [e["seq"] for e in v["log"]] == list(range(start, len(s.log) + 1))
    assert start > 1
    assert view_log(s, 0, start - 1) == v["log"]
    assert len(view_log(s, 0)) == len(s.log)


def test_p15_bonus_organize_moves_each_disk_once() -> None:
    t = table(3, SEED)
    put(t, (2, 4), "PIL016", [0])
    put(t, (2, 6), "PIL012", [])
    put(t, (2, 2), "PIL002", [])
    hand(t, 0, ["PIL011"])  # G07
    s = act(
        ready(t),
        {"type": "scheme", "card": "PIL011", "use": "ability"},
        {"type": "organize", "by": "scheme", "faction": None, "target": None},
        {"type": "move", "from": [2, 4], "to": [2, 6]},
    )
    assert E.to_act(s) == 0
    assert kinds(s) == "action"  # the moved disk may not move again: nothing left to move


def test_p25_scout_buffs_stack() -> None:
    t = table(3, SEED)
    t.turn.buffs = ["G12", "G12"]
    hand(t, 0, ["PIL047"])  # a PRO Ace: 3 PRO each time
    favor(t, 0, MAG=1)
    s = act(
        ready(t),
        {"type": "scout", "by": "main", "acting": "placard", "target": [4, 4]},
        {"type": "place", "card": "PIL047"},
    )
    assert fav(s, 0) == {"PRO": 6}


# --- more of C and D -------------------------------------------------------------------


def _activate(t: Table, seat: int, special: str) -> None:
    for pile in (t.event_deck, t.event_box):
        if special in pile:
            pile.remove(special)
    t.active_event[seat] = special


def test_c_nobility_card_influences_any_card_and_discounts_a_first_disk() -> None:
    t = table(3, SEED)
    give_card(t, "FC-NOB", 0)
    put(t, (0, 4), "PIL021", [])  # I PRO/NOB, far from seat 0: slot 1 costs PRO
    favor(t, 0, NOB=1, PRO=1)
    s = ready(t)
    assert {"type": "influence", "by": "faction", "target": [0, 4], "n": 1} in options(s)
    assert not [o for o in types_of(s, "influence") if o["by"] == "main" and o["target"] == [0, 4]]
    s = act(s, {"type": "influence", "by": "faction", "target": [0, 4], "n": 1})
    assert slots(s, (0, 4)) == [0, None]
    assert ("FC-NOB", 0, 0, True) in s.fcards


def test_s02_courtly_celebrations_makes_edge_cards_adjacent() -> None:
    t = table(3, SEED)
    _activate(t, 2, "S02")
    put(t, (0, 4), "PIL021", [])  # an edge card far from seat 0
    favor(t, 0, PRO=1)
    assert {"type": "influence", "by": "main", "target": [0, 4], "n": 1} in options(ready(t))


def test_s05_fair_weather_moves_a_faction_disk_anywhere() -> None:
    t = table(3, SEED)
    _activate(t, 1, "S05")
    put(t, (4, 4), "PIL016", [0])
    put(t, (0, 4), "PIL021", [])
    favor(t, 0, NOB=1)
    s = act(ready(t), {"type": "organize", "by": "main", "faction": "NOB", "target": None})
    assert slots(s, (0, 4))[0] == 0  # the only open slot anywhere: taken by the engine


def test_s06_freemason_compact_chains_a_freemason_card() -> None:
    t = table(3, SEED)
    hand(t, 0, ["PIL004", "PIL029"])  # MAG/PRO, then SCH/NOB (Freemason)
    s = act(ready(t), {"type": "scheme", "card": "PIL004", "use": "quick"}, gain("MAG"))
    assert not types_of(s, "scheme")
    t = thaw(s)
    _activate(t, 1, "S06")
    assert types_of(ready(t), "scheme")


def test_s01_congress_buys_a_main_action_for_five_favor() -> None:
    t = table(3, SEED)
    _activate(t, 2, "S01")
    favor(t, 0, NOB=5)
    s = act(ready(t), {"type": "congress"})
    assert s.turn.main_allowed == 3
    assert fav(s, 0) == {}
    assert {"type": "congress"} not in options(s)


def test_s09_rosicrucian_advance_scouts_from_a_rosicrucian_card() -> None:
    t = table(3, SEED)
    _activate(t, 1, "S09")
    put(t, (4, 4), "PIL014", [0])  # RC PRO/MAG
    favor(t, 0, PRO=1)
    t.turn.main_used = 2
    s = ready(t)
    assert {"type": "scout", "by": "advance", "acting": [4, 4], "target": [3, 3]} in options(s)


def test_g11_expel_buff_makes_expel_free_and_g14_extorts_any_card() -> None:
    t = table(3, SEED)
    t.turn.buffs = ["G11", "G14"]
    put(t, (2, 4), "PIL016", [1, 1])
    hand(t, 0, ["PIL004"])
    s = ready(t)
    assert {"type": "extort", "by": "main", "target": [2, 4]} in options(s)
    assert {
        "type": "expel",
        "by": "main",
        "acting": "placard",
        "target": [4, 4],
        "card": "PIL004",
    } in options(s)


def test_g09_oust_buff_nobody_is_favoured_so_an_ace_adds_nothing() -> None:
    t = table(3, SEED)
    t.turn.buffs = ["G09"]
    s = oust_table(t, ["PIL047"], ["PIL004"])
    assert s.oust is not None
    assert s.oust.favoured is None
    assert s.oust.autowin == ()
    s = act(s, {"type": "oust_next", "choice": "call"})
    assert steps(s, "oust_end")[-1]["winner"] == 1  # 5 + 0 against 6 + 4


def test_g03_bonus_oust_sets_the_strength_one_above_the_defender() -> None:
    t = table(3, SEED)
    put(t, (2, 4), "PIL016", [1, 0])
    put(t, (1, 3), "PIL042", [0, 0, 1, 1])
    hand(t, 0, ["PIL004", "PIL003"])  # G03 (MAG/PRO); then an ART 5 for the round
    hand(t, 1, ["PIL038"])
    favor(t, 0, PRO=1)
    s = act(
        ready(t),
        {"type": "scheme", "card": "PIL004", "use": "ability"},
        {"type": "oust", "by": "scheme", "acting": [1, 3], "target": [2, 4], "defender": 1, "k": 1},
    )
    assert kinds(s) == "strength"
    s = act(s, {"type": "strength", "delta": 1})
    assert s.oust is not None
    assert s.oust.init[0] == s.oust.init[1] + 1


def test_5_4_5_5_a_special_is_activated_next_turn_and_discarded_the_turn_after() -> None:
    t = table(2, SEED)
    t.event_deck.remove("S07") if "S07" in t.event_deck else t.event_box.remove("S07")
    t.events[0] = ["S07"]
    s = E.advance(frozen_turn(t))
    assert kinds(s) == "event"
    s = act(s, {"type": "activate", "event": "S07"})
    assert s.active_event[0] == "S07"
    assert kinds(s) == "action"
    t = thaw(s)
    s = E.advance(frozen_turn(t))
    assert s.active_event[0] is None
    assert s.event_discard[0] == "S07"


def test_13_2_the_round_of_the_fifth_edict_is_the_last() -> None:
    t = table(2, SEED)
    t.final_round = True
    t.edicts_discarded = 5
    s = run_auto(act(ready(t), {"type": "end"}))
    while not E.is_over(s):
        seat = E.to_act(s)
        assert seat is not None
        s = run_auto(E.apply(s, seat, {"type": "end"} if kinds(s) == "action" else options(s)[0]))
    result = E.result(s)
    assert result is not None
    assert result["reason"] == "faction_scoring"
    assert s.active == 1  # seat 1's turn ended the round and the game


def test_p26_a_view_says_which_unit_a_payment_is_for_and_who_is_paid() -> None:
    from engine.pax.view import view

    t = table(3, SEED)
    favor(t, 0, PRO=1, MAG=1)
    s = act(ready(t), {"type": "scout", "by": "main", "acting": "placard", "target": [4, 4]})
    assert view(s, 0)["decision"] == {"unit": ["PRO", "MAG", "SCH"], "units_left": 1}
    t = table(3, SEED)
    put(t, (2, 4), "PIL016", [0, 1])
    s = act(ready(t), {"type": "extort", "by": "main", "target": [2, 4]}, gain("NOB"))
    assert view(s, 2)["decision"] == {"to": 1, "owed": 1}
    from engine.pax.record import state_from_json, state_to_json

    assert E.decision(state_from_json(state_to_json(s))) == {"to": 1, "owed": 1}


def test_p28_the_basis_of_an_upward_closed_plot_is_as_compatible_as_all_its_witnesses() -> None:
    import random as rnd

    t = table(3, SEED)
    cells = ((0, 2), (0, 4), (0, 6), (1, 1), (1, 3), (1, 5), (1, 7), (2, 0))
    cards = ("PIL005", "PIL016", "PIL017", "PIL020", "PIL022", "PIL026", "PIL029", "PIL032")
    for pos, card in zip(cells, cards, strict=True):
        put(t, pos, card, [0, 0, 1])  # seat 0 controls each, seat 1 is there too
    rng = rnd.Random(28)
    for plot in ("P06", "P09", "P07"):
        basis = list(P.witnesses(t, 0, plot))
        full = list(P.witnesses(t, 0, plot, full=True))
        assert basis
        assert len(basis) < len(full) or plot == "P07"  # 3 knights, 2 needed: all 4 sets
        for _ in range(300):
            w = (rng.getrandbits(len(t.cards)) or 1, None)
            assert any(P.compatible(a, w) for a in basis) == any(P.compatible(a, w) for a in full)


def test_15_2_4_the_autopilot_plays_the_dagger_as_underdog_else_the_highest_number() -> None:
    from engine.pax.bots import autopilot_oust_card
    from engine.pax.view import view

    t = table(3, SEED)
    s = oust_table(t, ["PIL007", "PIL003"], ["PIL048", "PIL038", "PIL004"])
    s = act(s, {"type": "oust_card", "card": "PIL007"})
    assert E.to_act(s) == 1
    assert s.oust is not None
    assert s.oust.favoured == 1  # Red is favoured: no Dagger; the 6 (PIL038)
    assert autopilot_oust_card(view(s, 1)) == {"type": "oust_card", "card": "PIL038"}


def test_15_2_4_the_autopilot_order_on_hand_made_views() -> None:
    from engine.pax.bots import autopilot_oust_card

    def pick(hand: list[str], favoured: int | None) -> str:
        v = {
            "seat": 1,
            "legal_actions": [{"type": "oust_card", "card": c} for c in hand],
            "state": {"oust": {"favoured": favoured}},
        }
        return str(autopilot_oust_card(v)["card"])

    hand = ["PIL038", "PIL048", "PIL056", "PIL007"]  # 6, Ace, Crown, 6
    assert pick(hand, 0) == "PIL048"  # underdog: the Dagger
    assert pick(hand, 1) == "PIL056"  # favoured: the Hammer
    assert pick(hand, None) == "PIL007"  # neither: the highest number, lowest id
    assert pick(["PIL048", "PIL056"], None) == "PIL048"  # else any Ace or Crown


def test_c_every_faction_cards_ability_once_per_turn() -> None:
    """Appendix C: each card grants its extra action once, outside the allowance."""
    t = table(3, SEED)
    for fc in t.g.cat.data.faction_cards:
        give_card(t, fc, 0)
    put(t, (4, 4), "PIL016", [0, 0])
    put(t, (4, 6), "PIL012", [1])
    put(t, (0, 4), "PIL021", [])
    hand(t, 0, ["PIL004", "PIL007"])
    favor(t, 0, NOB=2, PRO=2, MAG=2, ART=2, SCH=2, CLE=3)
    t.turn.main_used = 2
    s = ready(t)
    by_faction = {o["type"] for o in options(s) if o.get("by") == "faction"}
    assert by_faction == {"scout", "influence", "extort", "organize", "expel", "oust"}
    s = act(s, {"type": "extort", "by": "faction", "target": [4, 4]}, gain("NOB"))
    assert s.turn.main_used == 2
    assert not [o for o in options(s) if o.get("by") == "faction" and o["type"] == "extort"]
    s = act(s, {"type": "scout", "by": "faction", "acting": None, "target": [0, 2]})
    assert kinds(s) == "pay"
    direct = {o["faction"] for o in options(s) if not o["exchange"]}
    assert direct == {"SCH", "ART"}  # SCH, or ART as a wild (FC-ART)
    assert {"type": "pay", "faction": "CLE", "exchange": True} in options(s)  # 2:1 (FC-PRO)
    s = act(s, pay("SCH"), {"type": "place", "card": "PIL004"})
    assert card_at(s, (0, 2)) == "PIL004"
    oust = {"type": "oust", "by": "faction", "acting": [4, 4], "target": [4, 6]}
    assert {**oust, "defender": 1, "k": 1} in options(s)
    s = act(s, {"type": "organize", "by": "faction", "faction": None, "target": None})
    assert kinds(s) == "pay"


def test_15_5_1_a_suggested_payment_pays_the_action() -> None:
    from engine.pax.view import suggest_payment

    t = table(3, SEED)
    put(t, (4, 4), "PIL016", [0, 1])
    favor(t, 0, NOB=6, PRO=6, ART=3)
    s = ready(t)
    action = {"type": "influence", "by": "main", "target": [4, 4], "n": 2}
    plan = suggest_payment(s, 0, action)
    assert plan
    assert all(p["type"] == "pay" for p in plan)
    s = act(s, action, *plan)
    assert kinds(s) == "action"
    assert slots(s, (4, 4)) == [0, 1, 0, 0]
    assert sum(s.favor[0]) == 15 - 6


def test_refusals_of_a_decision_name_what_it_takes() -> None:
    from engine.core import IllegalAction

    t = table(3, SEED)
    favor(t, 0, PRO=1, MAG=1)
    s = act(ready(t), {"type": "scout", "by": "main", "acting": "placard", "target": [4, 4]})
    with pytest.raises(IllegalAction) as err:
        E.apply(s, 0, pay("NOB"))
    assert err.value.code == "not_legal"
    assert "2.2.4" in err.value.message
