"""The heuristic bot does the obvious right thing in hand-built situations."""

from __future__ import annotations

import random

import pytest

from engine import indulgence as game
from engine.bots import _eval
from engine.bots.heuristic import heuristic_bot
from engine.cards import mask_from_ids
from engine.indulgence.edicts import BASIC_DECK, CATALOG, EDICT_INDEX
from tests.bots.util import JsonDict, act, hand_state, play

RNG = random.Random(0)


def _decide(state: game.State) -> JsonDict:
    seat = game.to_act(state)
    assert seat is not None
    view = game.view(state, seat)
    action = heuristic_bot(view, RNG)
    assert action in view["legal_actions"]
    return action


def test_ruler_picks_the_family_it_is_void_in_not_its_longest() -> None:
    ruler_hand = ["M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8", "M9", "O2", "O3", "S2"]
    state = hand_state(3, [ruler_hand], ["any-medici", "any-borgia", "sixes"])
    assert _decide(state) == {"type": "choose_edict", "edict": "any-borgia"}


def test_ruler_names_as_trump_the_family_it_holds_least_of() -> None:
    ruler_hand = ["B7", "B8", "B9", "M5", "M6", "M7", "M8", "O5", "O6", "O7", "O8", "O9"]
    state = hand_state(3, [ruler_hand], ["any-trump", "sixes", "first-last"], variant="expert")
    state = act(state, {"type": "choose_edict", "edict": "any-trump"})
    assert _decide(state) == {"type": "name_trump", "family": "sforza"}


def test_never_sins_with_a_hopeless_hand() -> None:
    weak = ["B1", "B2", "B3", "M1", "M2", "M3", "O1", "O2", "O3", "S1", "S2", "S3"]
    for edict in BASIC_DECK:
        row = [CATALOG[edict].id, *[CATALOG[e].id for e in BASIC_DECK if e != edict][:2]]
        state = hand_state(3, [[], weak], row)
        state = act(state, {"type": "choose_edict", "edict": CATALOG[edict].id})
        assert _decide(state) == {"type": "pass"}, CATALOG[edict].id


def test_sins_with_a_hand_that_surely_wins_the_first_three_tricks() -> None:
    strong = ["B9", "B8", "M9", "O1", "O2", "O3", "S1", "S2", "S3", "M1", "M2", "B1"]
    state = hand_state(3, [[], strong], ["first-to-three", "sixes", "any-orsini"])
    state = act(state, {"type": "choose_edict", "edict": "first-to-three"})
    assert _decide(state) == {"type": "sin"}


def test_sin_rule_asks_for_length_and_top_cards_in_the_family() -> None:
    any_medici = (EDICT_INDEX["any-medici"],)
    long_top = mask_from_ids(
        ["M9", "M8", "M7", "M6", "M5", "M4", "B9", "O1", "O2", "S1", "S2", "S3"]
    )
    long_low = mask_from_ids(
        ["M1", "M2", "M3", "M4", "M5", "M6", "B9", "O1", "O2", "S1", "S2", "S3"]
    )
    assert _eval.sin_likely(long_top, any_medici, None, 3, False)
    assert not _eval.sin_likely(long_low, any_medici, None, 3, False)
    assert not _eval.sin_likely(long_top, (*any_medici, EDICT_INDEX["sixes"]), None, 3, True)


def _any_medici_hand() -> game.State:
    # Seat 0 rules with "Don't take any Medicis"; seat 1 is void in Borgias.
    hands = [
        ["B5", "B6", "O1", "O2", "O3", "O4", "S1", "S2", "S3", "S4", "M1", "M2"],
        ["M9", "M3", "O9", "O8", "O7", "O6", "S9", "S8", "S7", "S6", "O5", "S5"],
        ["B1", "B2", "B3", "B4", "B7", "B8", "B9", "M4", "M5", "M6", "M7", "M8"],
    ]
    state = hand_state(3, hands, ["any-medici", "sixes", "first-last"])
    return act(
        state, {"type": "choose_edict", "edict": "any-medici"}, {"type": "pass"}, {"type": "pass"}
    )


def test_dumps_a_forbidden_card_when_void_in_the_led_family() -> None:
    state = act(_any_medici_hand(), play("B5"))
    assert _decide(state) == play("M9")


def test_ducks_under_the_card_to_beat() -> None:
    state = act(_any_medici_hand(), play("B5"), play("M9"))
    # Seat 2 follows Borgia: B4 (or lower) stays under B5; it ducks as high as it can.
    assert _decide(state) == play("B4")


def test_does_not_lead_a_sure_winner_when_avoiding_tricks() -> None:
    hands = [
        ["B9", "B1", "O5", "O6", "S5", "S6", "M5", "M6", "B5", "O7", "S7", "M7"],
    ]
    state = hand_state(3, hands, ["first-last", "sixes", "any-medici"])
    state = act(
        state, {"type": "choose_edict", "edict": "first-last"}, {"type": "pass"}, {"type": "pass"}
    )
    action = _decide(state)
    assert action["card"] != "B9"


def test_the_sinner_puts_the_ring_on_a_card_to_win_a_needed_trick() -> None:
    hands = [
        ["B2", "M1", "O1", "O2", "O3", "O4", "S1", "S2", "S3", "S4", "O5", "S5"],
        ["B1", "M2", "O9", "O8", "O7", "O6", "S9", "S8", "S7", "S6", "B3", "B4"],
        ["B9", "M8", "B5", "B6", "B7", "B8", "M3", "M4", "M5", "M6", "M7", "M9"],
    ]
    state = hand_state(3, hands, ["first-to-three", "sixes", "any-orsini"])
    state = act(state, {"type": "choose_edict", "edict": "first-to-three"}, {"type": "sin"})
    # The sinner (seat 1) leads; seat 2 wins trick 1 and leads M8; seat 0 follows M1.
    state = act(state, play("B1"), play("B9"), play("B2"), play("M8"), play("M1"))
    assert _decide(state) == play("M2", ring=True)


def _tie_view(me: int, sinner: int | None, ruler: int) -> JsonDict:
    state = game.new_game(4, "expert", "tie")
    view = game.view(state, me)
    view["phase"] = "resolving_ties"
    view["to_act"] = me
    view["ruler_seat"] = ruler
    view["sinner_seat"] = sinner
    view["pending_tie"] = {"family": "orsini", "chooser": me, "seats": [0, 1, 2]}
    view["legal_actions"] = [
        {"type": "resolve_tie", "family": "orsini", "seat": s} for s in (0, 1, 2)
    ]
    view["seats"][1]["florins"] = 41
    view["seats"][2]["florins"] = 25
    return view


@pytest.mark.parametrize("me", [0, 1, 2])
def test_a_sinner_resolves_ties_for_itself(me: int) -> None:
    action = heuristic_bot(_tie_view(me, sinner=me, ruler=3), random.Random(0))
    assert action == {"type": "resolve_tie", "family": "orsini", "seat": me}


def test_the_ruler_makes_the_richest_tied_opponent_pay() -> None:
    action = heuristic_bot(_tie_view(0, sinner=None, ruler=0), random.Random(0))
    assert action == {"type": "resolve_tie", "family": "orsini", "seat": 1}


def test_papal_bull_only_when_the_whole_row_is_clearly_worth_more() -> None:
    # Void in Borgias and Orsinis and weak: the row's two family edicts are both safe.
    hand = ["M1", "M2", "M3", "S1", "S2", "S3", "M4", "S4", "M5"]
    state = hand_state(4, [hand], ["any-borgia", "any-orsini", "sixes"], variant="expert")
    assert _decide(state) == {"type": "papal_bull"}
    strong = ["B9", "B8", "B7", "O9", "O8", "O7", "M9", "S9", "M8"]
    state = hand_state(4, [strong], ["any-borgia", "any-orsini", "sixes"], variant="expert")
    assert _decide(state)["type"] == "choose_edict"
