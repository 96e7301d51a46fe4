"""Rulings not pinned elsewhere: the spec's E02, E16, E23, E30-E33, and our rulings
OR16-OR33 of docs/eleusis.md (the game's own; OR01-OR15 are the rule language's)."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import replace
from importlib import resources

import pytest

from engine import eleusis as game
from engine.eleusis.deck import parse_card, rank_of
from engine.eleusis.setup import evaluator_version

from .tables import (
    FAST,
    call,
    event_types,
    hand,
    no_play,
    of_type,
    play,
    play_out,
    refused,
    rigged,
    with_pc,
)

ONE_EACH = {1: ["2H.1", "2S.1"], 2: ["4H.1", "4S.1"], 3: ["6H.1", "6S.1"], 4: ["8H.1", "8S.1"]}


def test_e02_card_values_are_fixed_and_a_rule_states_other_values_itself() -> None:
    """Faces count 11-13; a dealer who wants them worth 10 writes min(card.rank, 10)."""
    state = rigged(
        4,
        {1: ["KH.1", "9S.1"], 2: ["4H.1", "4S.1"], 3: ["6H.1", "6S.1"]},
        ["AD.1"],
        rule="accept min(card.rank, 10) + min(prev.rank, 10) >= 11",
        options={"hand_size": 2},
    )
    state = play(state, 1, "KH.1")  # 10 + 1 = 11: right
    assert of_type(state, "verdict")[0]["verdict"] == "right"


def test_e16_no_declaration_once_the_round_has_ended_with_that_turn() -> None:
    state = rigged(
        5, {1: ["2H.1"], 2: ["4H.1"], 3: ["6H.1"], 4: ["8H.1"]}, ["AD.1"], options={"hand_size": 1}
    )
    state = play(state, 1, "2H.1", prophet="declare")
    assert state.round.end_reason == "out_of_cards"
    assert state.round.lines == ()
    assert "prophet" not in event_types(state)


def test_e23_a_wrong_no_play_of_one_right_card_with_an_overthrow_ends_the_round() -> None:
    state = rigged(5, {**ONE_EACH, 2: ["4H.1", "5H.1"]}, ["AD.1"], options={"hand_size": 2})
    state = play(state, 1, "2H.1", prophet="declare")  # seat 1 prophet, m = 1
    state = call(play(state, 2, "4H.1"), "right")
    state = call(play(state, 3, "6H.1"), "right")
    state = call(play(state, 4, "8H.1"), "right")
    assert hand(state, 2) == ["5H.1"]  # a single card, and it is right
    state = call(no_play(state, 2), "correct")  # N2: overthrow; the dealer places 5♥
    assert event_types(state) == [
        "approval",
        "verdict",
        "overthrow",
        "draw",
        "chosen",
        "main",
        "round_end",
    ]
    assert hand(state, 2) == []
    assert state.round.end_reason == "out_of_cards"


def test_e30_a_prophet_whose_seat_is_played_by_a_bot_stays_prophet() -> None:
    """The engine knows no take-over: the autopilot calls for the prophet's seat."""
    state = rigged(5, ONE_EACH, ["AD.1"], options={"hand_size": 2})
    state = play(play(state, 1, "2H.1", prophet="declare"), 2, "4H.1")
    state = game.apply(state, 1, {"type": "call", "verdict": "right"}, by="autopilot")
    assert state.round.prophet == 1
    assert state.round.log[-1].by == "autopilot"


def test_e31_the_autopilot_policy_never_declares_nor_plays_strings() -> None:
    state = game.new_game(5, "standard", "autopilot", {**FAST, "hand_size": 8, "round_limit": 1})
    state, moves = play_out(state, ["novice"] * 5, random.Random(1))
    turns = [a for _, a, _ in moves if a and a["type"] in ("play", "no_play")]
    assert all(a["prophet"] == "no" and len(a.get("cards", [])) <= 1 for a in turns)


def test_e32_a_dealer_who_sets_no_rule_in_time_gets_a_library_rule_of_the_tables_difficulty() -> (
    None
):
    state = game.new_game(5, "standard", "late-dealer", {**FAST, "difficulty": "hard"})
    dealer = state.round.dealer
    state = game.timeout(state)
    entry = state.round.log[-1]
    assert (entry.seat, entry.by, entry.phase) == (dealer, "timeout", "rule_setup")
    assert json.loads(entry.action)["difficulty"] == "hard"
    assert state.round.rule is not None
    assert state.round.dealer == dealer  # still the dealer, scoring as such


def test_e33_the_dealer_sees_hand_counts_not_hands() -> None:
    state = rigged(
        4,
        {1: ["2H.1", "3S.1"], 2: ["4H.1", "5S.1"], 3: ["6H.1", "7S.1"]},
        ["AD.1"],
        options={"hand_size": 2},
    )
    v = game.view(state, 0)
    assert v["my_hand"] == []
    assert [s["hand_count"] for s in v["seats"]] == [None, 2, 2, 2]
    assert not {"2H.1", "3S.1", "4H.1", "5S.1", "6H.1", "7S.1"} & set(json.dumps(v).split('"'))


# --- our rulings ------------------------------------------------------------------------


def test_or17_a_free_hint_has_at_most_500_characters() -> None:
    state = game.new_game(4, "standard", "hint", FAST)
    dealer = state.round.dealer
    assert dealer is not None
    action = {"type": "set_rule", "source": "accept card.red", "free_hint": "x" * 501}
    assert refused(state, dealer, action) == "bad_action"
    game.apply(state, dealer, {**action, "free_hint": "x" * 500})


def test_or18_a_house_dealt_round_seats_everyone_from_a_rotating_start() -> None:
    state = game.new_game(3, "practice", "house-order", {**FAST, "round_limit": 2, "hand_size": 2})
    state = game.advance(state)  # round 1: scientists 0, 1, 2 from seat 0
    deal = state.round.deal
    stock = game.new_game(3, "practice", "house-order", {**FAST, "round_limit": 2}).round.stock
    assert deal is not None
    assert [deal[s][0] for s in (0, 1, 2)] == list(stock[:3])
    assert state.round.first_player == (rank_of(state.round.main[0].card) - 1) % 3


def test_or19_when_two_end_reasons_hold_out_of_cards_comes_first() -> None:
    state = rigged(
        4,
        {1: ["2H.1"], 2: ["4H.1"], 3: ["6H.1"]},
        ["AD.1"],
        options={"hand_size": 1, "max_turns": 1},
    )
    state = play(state, 1, "2H.1")
    assert state.round.end_reason == "out_of_cards"


def test_or20_difficulty_tiers_are_the_library_grades() -> None:
    from engine.eleusis.setup import tier

    assert {e.difficulty for e in tier("easy")} == {1}
    assert {e.difficulty for e in tier("medium")} == {2}
    assert {e.difficulty for e in tier("hard")} == {3}
    assert {e.difficulty for e in tier("expert")} == {4, 5}
    assert all(e.verdict == "ok" for d in ("easy", "medium", "hard", "expert") for e in tier(d))


def test_or21_the_evaluator_version_hashes_the_erl_sources() -> None:
    digest = hashlib.sha256()
    erl = resources.files("engine.eleusis.erl")
    for f in sorted((f for f in erl.iterdir() if f.name.endswith(".py")), key=lambda f: f.name):
        digest.update(f.name.encode() + b"\n" + f.read_bytes() + b"\n")
    assert evaluator_version() == "sha256:" + digest.hexdigest()[:16]


def test_or22_a_prophecy_may_not_look_further_back_than_the_main_line() -> None:
    state = rigged(5, ONE_EACH, ["AD.1"], options={"hand_size": 2})
    state = play(state, 1, "2H.1", prophet="declare")  # main line: 2 cards
    source = "accept card.red == prev3.red"
    assert refused(state, 1, {"type": "set_prophecy", "source": source}) == "prophecy_invalid"
    game.apply(state, 1, {"type": "set_prophecy", "source": "accept card.red == prev2.red"})


def test_or24_more_than_four_cards_is_a_malformed_play() -> None:
    state = rigged(
        4,
        {
            1: ["2H.1", "3H.1", "4H.1", "5H.1", "6H.1"],
            2: ["2S.1", "3S.1", "4S.1", "5S.1", "6S.1"],
            3: ["2C.1", "3C.1", "4C.1", "5C.1", "6C.1"],
        },
        ["AD.1"],
        options={"hand_size": 5},
    )
    action = {"type": "play", "cards": ["2H.1", "3H.1", "4H.1", "5H.1", "6H.1"]}
    assert refused(state, 1, action) == "bad_action"


def test_or25_optional_fields_take_their_defaults_and_are_logged_written_out() -> None:
    state = game.new_game(4, "standard", "defaults", FAST)
    dealer = state.round.dealer
    assert dealer is not None
    state = game.apply(state, dealer, {"type": "set_rule", "source": "accept card.red"})
    assert json.loads(state.round.log[-1].action) == {
        "type": "set_rule",
        "source": "accept card.red",
        "hints": [],
        "free_hint": None,
        "no_play_choice": "random",
        "confirm_warnings": False,
    }
    seat = game.to_act(state)
    assert seat is not None
    state = game.apply(state, seat, {"type": "no_play"})
    assert json.loads(state.round.log[-1].action) == {"type": "no_play", "prophet": "no"}


def test_or26_no_prophecy_once_the_round_is_over() -> None:
    state = rigged(5, ONE_EACH, ["AD.1"], options={"hand_size": 2})
    state = with_pc(play(state, 1, "2H.1", prophet="declare"), 31)  # sudden death (PC - m = 30)
    for seat, card in ((2, "4S.1"), (3, "6S.1"), (4, "8S.1")):
        state = call(play(state, seat, card), "wrong")  # each expelled
    assert state.round.end_reason == "all_expelled"
    assert state.round.prophet == 1
    assert refused(state, 1, {"type": "set_prophecy", "source": "accept true"}) == "wrong_phase"


def test_or28_a_missed_dealer_choice_places_the_random_card_marked_random() -> None:
    state = rigged(
        4,
        {1: ["2H.1", "3H.1"], 2: ["4S.1", "5S.1"], 3: ["6S.1", "7S.1"]},
        ["AD.1"],
        options={"hand_size": 2},
        no_play_choice="choose",
    )
    state = game.timeout(no_play(state, 1))
    assert of_type(state, "chosen")[0]["by"] == "random"
    assert state.round.log[-1].by == "timeout"


def test_or29_six_decks_turned_over_without_a_starter_end_the_round_before_play() -> None:
    state = game.new_game(4, "standard", "no-starter", {**FAST, "hand_size": 1})
    dealer = state.round.dealer
    assert dealer is not None
    black = tuple(parse_card(c) for c in ("2S.1", "3S.1", "4S.1", "5S.1", "6S.1", "7S.1", "8S.1"))
    state = replace(state, rounds=(replace(state.round, stock=black, decks_in_use=6),))
    state = game.apply(state, dealer, {"type": "set_rule", "source": "accept card.red"})
    r = state.round
    assert r.end_reason == "stock_exhausted"
    assert [kept for _, kept in r.starter] == [False] * 4
    assert event_types(state) == ["round_end"]
    state = game.advance(state)
    assert state.rounds[0].score is not None
    assert set(state.rounds[0].score.scores) == {0}


def test_or31_starter_cards_are_in_the_starter_list_not_in_events() -> None:
    state = rigged(
        4, {1: ["2H.1"], 2: ["4H.1"], 3: ["6H.1"]}, ["3S.1", "AD.1"], options={"hand_size": 1}
    )
    assert event_types(state) == []
    record = game.full_record(state)["rounds"][0]
    assert record["starter"][1] == {"card": "AD.1", "kept": True}


def test_or33_the_hand_size_is_1_to_14() -> None:
    for size in (0, 15):
        with pytest.raises(ValueError, match="hand_size"):
            game.new_game(4, "standard", "s", {"hand_size": size})


def test_v4_a_practice_game_record_verifies() -> None:
    state = game.new_game(
        3, "practice", "practice-verify", {**FAST, "round_limit": 2, "hand_size": 4}
    )
    state, _ = play_out(state, ["random"] * 3, random.Random(0))
    result = game.verify(game.full_record(state))
    assert result.ok, result.problems


def test_or27_a_game_ended_by_a_vote_in_the_next_rounds_window_verifies() -> None:
    state = game.new_game(
        5, "standard", "vote", {**FAST, "hand_size": 4, "bots": [False] + [True] * 4}
    )
    rng = random.Random(0)
    while state.round.number == 1:
        seat = game.to_act(state)
        if seat is None:
            state = game.advance(state)
        else:
            state = game.apply(state, seat, game.META.bots["random"](game.view(state, seat), rng))
    state = game.apply(state, 0, {"type": "propose_end"})  # the only human
    assert state.end is not None
    assert state.end.reason == "vote"
    result = game.verify(game.full_record(state))
    assert result.ok, result.problems


def test_or32_the_game_checks_a_rule_with_the_tables_walks_and_no_library_probes() -> None:
    from engine.eleusis.erl import compile_rule
    from engine.eleusis.sanity import SanitySettings, sanity_check

    rule = "accept card.rank == 1 or card.rank > prev.rank"  # R15, a "warn" rule
    state = game.new_game(4, "standard", "or32", {"sanity_walks": 40})
    dealer = state.round.dealer
    assert dealer is not None
    state = game.apply(
        state, dealer, {"type": "set_rule", "source": rule, "confirm_warnings": True}
    )
    expected = sanity_check(compile_rule(rule), SanitySettings(walks=40, library_probes=0))
    assert state.round.rule is not None
    assert state.round.rule.sanity == expected.verdict
    assert state.round.rule.reasons == tuple(
        f"{r.verdict} {r.code}: {r.message}" for r in expected.reasons
    )


def test_or34_no_card_is_chosen_when_an_approved_naming_call_expels_in_sudden_death() -> None:
    state = rigged(5, {**ONE_EACH, 2: ["4H.1", "4S.1"]}, ["AD.1"], options={"hand_size": 2})
    state = with_pc(play(state, 1, "2H.1", prophet="declare"), 31)
    state = call(no_play(state, 2), "wrong", "4H.1")  # N3 in sudden death
    assert event_types(state) == ["approval", "verdict", "expel"]
    assert hand(state, 2) == ["4H.1", "4S.1"]  # E22: X stays in the hand


def test_or30_or38_the_keys_the_engine_adds_to_the_record() -> None:
    state = rigged(
        4,
        {1: ["2S.1", "3S.1"], 2: ["4H.1", "4S.1"], 3: ["6H.1", "6S.1"]},
        ["AD.1"],
        options={"hand_size": 2},
        no_play_choice="choose",
    )
    state = no_play(state, 1)  # correct: all black
    record = game.full_record(state)
    assert {"difficulty", "sanity_walks", "max_turns"} <= set(record["settings"])
    rule = record["rounds"][0]["rule"]
    assert (rule["hints"], rule["free_hint"], rule["difficulty"]) == ([], None, None)
    assert rule["no_play_choice"] == "choose"  # public before the reveal (OR38)
    assert game.view(state, 2)["round"]["rule"]["no_play_choice"] == "choose"
    assert record["rounds"][0]["log"][-1]["shown"] == ["2S.1", "3S.1"]
