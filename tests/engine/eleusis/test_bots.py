"""The bots (NE-30): each reads only its seat's view and returns an action the engine
accepts; the dealer bot picks a library rule by difficulty (NE-30.4, E32); the novice
scientist (NE-30.1) drops contradicted hypotheses and plays what the survivors call right."""

from __future__ import annotations

import json
import random

import pytest

from engine import eleusis as game
from engine.eleusis.bots import dealer_bot
from engine.eleusis.novice import hypotheses, novice_bot, survivors

from .tables import FAST, call, hand, play, play_out, rigged


def test_the_dealer_bot_picks_a_library_rule_of_the_tables_difficulty() -> None:
    state = game.new_game(4, "standard", "dealer-bot", {**FAST, "difficulty": "expert"})
    dealer = state.round.dealer
    assert dealer is not None
    action = dealer_bot(game.view(state, dealer), random.Random(0))
    assert action == {"type": "library_rule", "difficulty": "expert", "no_play_choice": "random"}
    state = game.apply(state, dealer, action)
    assert state.round.rule is not None
    assert state.round.rule.difficulty == "expert"


@pytest.mark.parametrize("kind", ["random", "novice"])
def test_bots_decide_from_the_view_alone(kind: str) -> None:
    """The same view, even through JSON, and the same generator give the same action."""
    bot = game.META.bots[kind]
    state = game.new_game(5, "standard", f"alone-{kind}", {**FAST, "hand_size": 8})
    rng = random.Random(5)
    for _ in range(150):
        if game.is_over(state):
            break
        seat = game.to_act(state)
        if seat is None:
            state = game.advance(state)
            continue
        view = game.view(state, seat)
        a = bot(view, random.Random(seat))
        b = bot(json.loads(json.dumps(view)), random.Random(seat))
        assert a == b
        state = game.apply(state, seat, bot(view, rng))


def test_the_random_bot_uses_every_kind_of_turn() -> None:
    state = game.new_game(
        5, "standard", "random-kinds", {**FAST, "hand_size": 10, "round_limit": 2}
    )
    state, moves = play_out(state, ["random"] * 5, random.Random(2))
    kinds = {(a["type"], len(a.get("cards", [])) > 1, a.get("prophet")) for _, a, _ in moves if a}
    assert ("play", True, "no") in kinds  # strings
    assert ("no_play", False, "no") in kinds
    assert any(k[2] == "declare" for k in kinds)
    assert any(k[0] == "call" for k in kinds)


def test_the_novice_never_plays_strings_nor_declares() -> None:
    state = game.new_game(4, "standard", "novice-plain", {**FAST, "difficulty": "easy"})
    state, moves = play_out(state, ["novice"] * 4, random.Random(4))
    turns = [a for _, a, _ in moves if a and a["type"] in ("play", "no_play")]
    assert turns
    assert all(a["prophet"] == "no" for a in turns)
    assert all(len(a.get("cards", [])) <= 1 for a in turns)
    assert all(r.lines == () for r in state.rounds)


def test_ne_30_1_about_150_one_attribute_hypotheses() -> None:
    assert 120 <= len(hypotheses()) <= 180
    assert len({table for _, table in hypotheses()}) == len(hypotheses())


RED_TABLE = {
    1: ["2H.1", "3S.1", "4S.1", "5S.1"],
    2: ["6H.1", "7S.1", "8S.1", "9S.1"],
    3: ["10H.1", "JS.1", "QS.1", "KS.1"],
    4: ["2D.1", "3C.1", "4C.1", "5C.1"],
}


EVIDENCE_HANDS = {
    1: ["3S.1", "4S.1", "5S.1", "6S.1", "7S.1", "8S.1", "9S.1", "10S.1"],
    2: ["2H.1", "3H.1", "4H.1", "5H.1", "6H.1", "7H.1", "8H.1", "9H.1"],
    3: ["JS.1", "QS.1", "KS.1", "2C.1", "7C.1", "8C.1", "9C.1", "10C.1"],
    4: ["2D.1", "5D.1", "9D.1", "QD.1", "3C.1", "4C.1", "5C.1", "6C.1"],
}


def evidence(cycles: int) -> game.State:
    """A red-only round: each time round the table seats 1 and 3 play a black card
    (wrong), seats 2 and 4 a red one (right); then seats 1-3 play once more."""
    penalties = [f"{r}{s}.2" for s in "SC" for r in ("2", "3", "4", "5", "6", "7", "8", "9")]
    state = rigged(5, EVIDENCE_HANDS, ["AD.1"], penalties, options={"hand_size": 8})
    for cycle in range(cycles + 1):
        for seat in (1, 2, 3, 4) if cycle < cycles else (1, 2, 3):
            state = play(state, seat, EVIDENCE_HANDS[seat][cycle])
    return state


def test_the_novice_plays_what_the_surviving_hypotheses_call_right() -> None:
    state = evidence(3)
    assert hand(state, 4) == ["3C.1", "4C.1", "5C.1", "6C.1", "QD.1"]
    view = game.view(state, 4)
    assert 0 < len(survivors(view)) < len(hypotheses())
    assert novice_bot(view, random.Random(0)) == {
        "type": "play",
        "cards": ["QD.1"],
        "prophet": "no",
    }


def test_the_novice_declares_no_play_when_the_survivors_call_its_whole_hand_wrong() -> None:
    state = evidence(4)
    assert hand(state, 4) == ["3C.1", "4C.1", "5C.1", "6C.1"]
    assert novice_bot(game.view(state, 4), random.Random(0)) == {"type": "no_play", "prophet": "no"}


def test_the_novice_as_autopilot_prophet_calls_by_majority() -> None:
    state = rigged(
        5,
        RED_TABLE,
        ["AD.1"],
        ["6D.1", "7D.1", "8D.1", "9D.1", "10D.1", "JD.1"],
        options={"hand_size": 4},
    )
    state = play(state, 1, "2H.1", prophet="declare")
    state = play(state, 2, "7S.1")
    state = call(state, "wrong")
    state = play(state, 3, "10H.1")
    state = call(state, "right")
    state = play(state, 4, "3C.1")
    assert novice_bot(game.view(state, 1), random.Random(0)) == {"type": "call", "verdict": "wrong"}
    assert len(hand(state, 1)) == 3
