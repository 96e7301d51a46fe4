"""Scoring (NE-13, E26, E27), multi-round games and their end (NE-4, E04-E06, E35)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import eleusis as game
from engine.eleusis.scoring import ranking, score

from .tables import FAST, play, refused, rigged

ONE_CARD = {1: ["2H.1"], 2: ["4H.1"], 3: ["6H.1"], 4: ["8H.1"]}


def one_round(**options: object) -> game.State:
    """5 seats, dealer 0, one card each: seat 1 plays it right and the round ends."""
    state = rigged(5, ONE_CARD, ["AD.1"], options={"hand_size": 1, **options})
    return play(state, 1, "2H.1")


def test_ne_13_scores_from_the_hands_at_the_end() -> None:
    state = game.advance(one_round())
    s = state.rounds[0].score
    assert s is not None
    assert s.high == 1
    assert s.scores == (5, 5, 0, 0, 0)  # seat 1: 1 - 0 + 4; the dealer: the highest
    assert s.held == (None, 0, 1, 1, 1)
    assert s.out_bonus == (None, 4, 0, 0, 0)
    assert s.dealer is not None
    assert (s.dealer.highest, s.dealer.cap) == (5, None)


def test_e27_the_dealer_gets_the_smaller_of_the_highest_score_and_twice_m() -> None:
    s = score(4, 0, {1: 3, 2: 10, 3: 0}, (1, 5, 20, 0))
    assert s.scores[1] == 10 - 3 + 20
    assert s.dealer is not None
    assert (s.dealer.highest, s.dealer.cap, s.dealer.score) == (27, 10, 10)
    # The highest includes the +4 of a scientist out of cards.
    s = score(4, 0, {1: 3, 2: 10, 3: 0}, None)
    assert s.dealer is not None
    assert s.dealer.highest == 14


@settings(max_examples=60, deadline=None)
@given(
    held=st.lists(st.integers(0, 60), min_size=2, max_size=9),
    prophet=st.none() | st.tuples(st.integers(0, 80), st.integers(0, 80), st.integers(0, 80)),
)
def test_ne_13_6_scores_are_never_negative(
    held: list[int], prophet: tuple[int, int, int] | None
) -> None:
    n = len(held) + 1
    hands = {seat: count for seat, count in enumerate(held, start=1)}
    true_prophet = (1, *prophet) if prophet else None
    s = score(n, 0, hands, true_prophet)
    assert all(x >= 0 for x in s.scores)
    assert s.scores[0] <= max(s.scores[1:])


def test_e06_equal_totals_share_a_place() -> None:
    assert ranking([10, 12, 10, 12]) == ((1, 3), (0, 2))
    assert ranking([0, 0, 0]) == ((0, 1, 2),)


def test_e05_a_round_limit_ends_the_game_early_with_ten_points_for_those_who_never_dealt() -> None:
    state = game.advance(one_round(round_limit=1))
    assert game.is_over(state)
    end = state.end
    assert end is not None
    assert end.reason == "round_limit"
    assert end.early_end_points == (0, 10, 10, 10, 10)
    assert end.totals == (5, 15, 10, 10, 10)
    result = game.result(state)
    assert result == {
        "ranking": [[1], [2, 3, 4], [0]],
        "scores": {"0": 5, "1": 15, "2": 10, "3": 10, "4": 10},
        "winner_seats": [1],
        "reason": "round_limit",
    }
    assert game.full_record(state)["end"] == {
        "reason": "round_limit",
        "early_end_points": [0, 10, 10, 10, 10],
        "totals": [5, 15, 10, 10, 10],
        "ranking": [[1], [2, 3, 4], [0]],
    }


def test_e05_e35_a_unanimous_vote_of_the_humans_after_a_round_ends_the_game() -> None:
    state = one_round(bots=[False, False, True, True, False])  # humans: 0, 1, 4
    assert game.to_act(state) is None
    assert {"type": "propose_end"} in game.legal_actions(state, 1)
    assert refused(state, 2, {"type": "propose_end"}) == "not_eligible"  # a bot
    assert refused(state, 1, {"type": "agree_end"}) == "not_eligible"  # nothing proposed
    state = game.apply(state, 1, {"type": "propose_end"})
    assert refused(state, 1, {"type": "agree_end"}) == "not_eligible"  # voted already
    assert refused(state, 4, {"type": "propose_end"}) == "not_eligible"  # agree instead
    state = game.apply(state, 4, {"type": "agree_end"})
    assert not game.is_over(state)
    state = game.apply(state, 0, {"type": "agree_end"})
    entries = state.rounds[0].log[-3:]
    assert [(e.seat, e.phase, json.loads(e.action)["type"]) for e in entries] == [
        (1, "round_over", "propose_end"),
        (4, "round_over", "agree_end"),
        (0, "round_over", "agree_end"),
    ]
    state = game.advance(state)  # scores the round and ends the game
    assert state.end is not None
    assert state.end.reason == "vote"
    assert state.end.early_end_points == (0, 10, 10, 10, 10)
    assert len(state.rounds) == 1


def test_e35_votes_stay_open_until_the_next_dealers_first_action() -> None:
    state = game.advance(one_round(bots=[False, True, True, True, True]))
    assert state.round.number == 2
    assert state.round.dealer == 1  # E04: the deal passes to the left
    state = game.apply(state, 0, {"type": "propose_end"})  # the only human: unanimous
    assert game.is_over(state)
    assert state.end is not None
    assert state.end.reason == "vote"
    assert [r.number for r in state.rounds] == [1]  # the unstarted round is dropped
    assert json.loads(state.rounds[0].log[-1].action) == {"type": "propose_end"}
    # Once the next dealer acts, the window is closed.
    state = game.advance(one_round())
    state = game.apply(state, 0, {"type": "propose_end"})
    state = game.apply(state, 1, {"type": "library_rule", "id": "R02"})
    assert state.votes == ()
    assert refused(state, 2, {"type": "agree_end"}) == "wrong_phase"


def test_e35_no_vote_after_the_last_planned_round() -> None:
    state = one_round(round_limit=1)
    assert refused(state, 1, {"type": "propose_end"}) == "wrong_phase"


def test_ne_4_1_a_game_ends_when_every_seat_has_dealt() -> None:
    state = game.new_game(3, "standard", "three", {**FAST, "hand_size": 2})
    rounds = 0
    while not game.is_over(state):
        seat = game.to_act(state)
        if seat is None:
            state = game.advance(state)
            continue
        if state.round.phase == "rule_setup":
            rounds += 1
            state = game.apply(state, seat, {"type": "library_rule", "id": "R04"})
        else:
            state = game.apply(state, seat, game.legal_actions(state, seat)[0])
    assert rounds == 3
    assert state.end is not None
    assert state.end.reason == "all_dealt"
    assert state.end.early_end_points == (0, 0, 0)
    totals = [sum(r.score.scores[s] for r in state.rounds if r.score) for s in range(3)]
    assert list(state.end.totals) == totals


def test_or23_a_house_dealt_game_gives_no_early_end_points() -> None:
    state = game.new_game(3, "practice", "house", {**FAST, "round_limit": 1, "hand_size": 2})
    while not game.is_over(state):
        seat = game.to_act(state)
        state = (
            game.advance(state)
            if seat is None
            else game.apply(state, seat, game.legal_actions(state, seat)[0])
        )
    assert state.end is not None
    assert state.end.early_end_points == (0, 0, 0)
    assert state.rounds[0].score is not None
    assert state.rounds[0].score.dealer is None
    assert None not in state.rounds[0].score.held


@pytest.mark.parametrize("seat", [0, 2])
def test_only_an_ended_round_is_scored(seat: int) -> None:
    state = rigged(5, ONE_CARD, ["AD.1"], options={"hand_size": 1})
    with pytest.raises(ValueError, match="Nothing to advance"):
        game.advance(state)
    assert game.to_act(state) == 1
    assert game.legal_actions(state, seat) == []
