"""Setting up games and rounds: seats (E01), decks and the stock (E03), dealers (E04), the
dealer's rule (NE-5, NE-22, E07, E08, E36), starters (E09), the first player (E10) and
the derivations of NE-29.3.3 (E34)."""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import replace

import pytest

from engine import eleusis as game
from engine.eleusis.commitment import rule_commitment, rule_salt
from engine.eleusis.deck import (
    added_deck,
    card_id,
    decks_needed,
    first_dealer,
    initial_stock,
    round_seed,
    uniform,
)
from engine.eleusis.setup import pick_library, tier
from engine.eleusis.table import scientists
from engine.eleusis.work import Work

from .tables import FAST, hand, main_line, rigged, stock_top


def _hmac(key: str, msg: str) -> bytes:
    return hmac.new(key.encode(), msg.encode(), hashlib.sha256).digest()


def _u(key: str, label: str, k: int) -> int:
    return int.from_bytes(_hmac(key, label)[:8], "big") % k


# --- E01 seats --------------------------------------------------------------------------


def test_e01_tables_have_3_to_10_seats_and_rated_ones_4_to_8() -> None:
    for n in (3, 10):
        game.new_game(n, "standard", "s", FAST)
    for n in (2, 11):
        with pytest.raises(ValueError, match="3 to 10"):
            game.new_game(n, "standard", "s", FAST)
    game.new_game(4, "standard", "s", {**FAST, "rated": True})
    game.new_game(8, "standard", "s", {**FAST, "rated": True})
    for n in (3, 9):
        with pytest.raises(ValueError, match="rated"):
            game.new_game(n, "standard", "s", {**FAST, "rated": True})


def test_e01_a_three_seat_table_never_has_a_prophet() -> None:
    """NE-10.1 (c) needs two other scientists: with two scientists nobody can declare."""
    state = rigged(
        3, {1: ["2H.1", "3H.1"], 2: ["4H.1", "5H.1"]}, ["AH.1"], options={"hand_size": 2}
    )
    assert game.view(state, 1)["prophet_possible"] is False  # labelled (E01)
    state = game.apply(state, 1, {"type": "play", "cards": ["2H.1"], "prophet": "declare"})
    assert state.round.prophet is None
    assert "prophet" not in [e["type"] for e in json.loads(state.round.log[-1].events)]


# --- E03 decks and the stock --------------------------------------------------------------


def test_e03_two_decks_plus_one_per_52_cards_over_104() -> None:
    assert decks_needed(14, 7) == 2  # 14 x 7 + 5 = 103
    assert decks_needed(14, 8) == 3  # "8 scientists start with 3 decks"
    assert decks_needed(14, 9) == 3
    assert decks_needed(12, 8) == 2  # 12 x 8 + 5 = 101
    assert game.new_game(9, "standard", "s", FAST).round.decks == 3
    assert len(game.new_game(9, "standard", "s", FAST).round.stock) == 156


def test_e03_a_fresh_deck_goes_beneath_when_four_or_fewer_remain() -> None:
    state = rigged(4, {1: ["2H.1"], 2: ["3H.1"], 3: ["4H.1"]}, ["AH.1"], options={"hand_size": 1})
    r = state.round
    state = replace(state, rounds=(replace(r, stock=r.stock[:6]),))
    work = Work(state)
    work.draw(1, 1, "penalty")
    assert work.decks_in_use == 2  # 5 left
    work.draw(1, 1, "penalty")
    assert work.decks_in_use == 3  # 4 left: deck 3 added at once
    assert tuple(work.stock[4:]) == added_deck(r.seed, 3)
    assert [e["type"] for e in work.events] == ["draw", "draw", "deck"]
    assert work.events[-1] == {"type": "deck", "deck": 3}


def test_e03_e42_no_seventh_deck_and_the_round_ends_after_the_turn_the_stock_ran_out() -> None:
    state = rigged(
        4,
        {1: ["2S.1", "3S.1"], 2: ["3H.1", "4H.1"], 3: ["4D.1", "5D.1"]},
        ["AH.1"],
        options={"hand_size": 2},
    )
    r = state.round
    state = replace(state, rounds=(replace(r, stock=r.stock[:3], decks_in_use=6),))
    state = game.apply(state, 1, {"type": "play", "cards": ["2S.1", "3S.1"]})  # wrong: 4 due
    draws = [e for e in json.loads(state.round.log[-1].events) if e["type"] == "draw"]
    assert len(draws[0]["cards"]) == 3  # cut short (E25)
    assert state.round.end_reason == "stock_exhausted"
    assert state.round.phase == "round_over"


# --- E04 dealers ------------------------------------------------------------------------


def test_e04_the_first_dealer_is_drawn_from_the_seed_then_the_deal_passes_left() -> None:
    state = game.new_game(5, "standard", "dealers", FAST)
    assert (
        state.first_dealer == _u("dealers", "eleusis/first-dealer", 5) == first_dealer("dealers", 5)
    )
    dealers = []
    while not game.is_over(state):
        dealers.append(state.round.dealer)
        seat = game.to_act(state)
        if seat is None:
            state = game.advance(state)
        elif state.round.phase == "rule_setup":
            state = game.apply(state, seat, {"type": "library_rule", "id": "R02"})
        else:  # every scientist plays the first card of their hand
            state = game.apply(state, seat, game.legal_actions(state, seat)[0])
    first = state.first_dealer
    assert first is not None
    assert list(dict.fromkeys(dealers)) == [(first + i) % 5 for i in range(5)]


# --- NE-29.3.3 derivations (E34) -----------------------------------------------------------


def test_e34_round_seeds_and_commitments_derive_from_the_game_seed() -> None:
    seed = round_seed("g", 3)
    assert seed == _hmac("g", "eleusis/round/3").hex()
    record = game.full_record(game.new_game(4, "standard", "g", FAST))
    assert record["seed"] is None  # until the game is over
    assert record["seed_commitment"] == hashlib.sha256(b"g").hexdigest()
    assert record["round_seed_commitments"] == [
        hashlib.sha256(round_seed("g", r).encode()).hexdigest() for r in (1, 2, 3, 4)
    ]


def test_29_3_3_the_stock_is_the_labelled_shuffle_of_the_cards_in_card_order() -> None:
    seed = round_seed("g", 1)
    cards = [f * 6 + copy - 1 for f in range(52) for copy in (1, 2)]  # card order
    for i in range(len(cards) - 1, 0, -1):
        j = _u(seed, f"stock/{i}", i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    assert initial_stock(seed, 2) == tuple(cards)
    assert game.new_game(4, "standard", "g", FAST).round.stock == tuple(cards)
    assert uniform(seed, "x", 7) == _u(seed, "x", 7)


def test_29_3_3_the_deal_is_one_card_at_a_time_clockwise_from_the_dealers_left() -> None:
    state = game.new_game(5, "standard", "deal", FAST)
    stock = state.round.stock
    dealer = state.round.dealer
    assert dealer is not None
    order = scientists(5, dealer, 1)
    state = game.apply(state, dealer, {"type": "library_rule", "id": "R01"})
    deal = state.round.deal
    assert deal is not None
    for seat_index, seat in enumerate(order):
        assert deal[seat] == tuple(stock[i * 4 + seat_index] for i in range(14))
    assert deal[dealer] == ()
    assert state.round.main[0].card == stock[56]  # R01 accepts any starter


def test_ne_23_the_commitment_binds_source_and_salt_from_the_round_seed() -> None:
    state, dealer = _setup()
    state = game.apply(state, dealer, {"type": "set_rule", "source": "accept card.red"})
    salt = rule_salt(state.round.seed)
    assert salt == _hmac(state.round.seed, "eleusis/rule-salt")
    text = f"eleusis-rule\nerl-1\n{salt.hex()}\naccept card.red"
    assert state.round.rule is not None
    assert state.round.rule.commitment == hashlib.sha256(text.encode()).hexdigest()
    assert state.round.rule.commitment == rule_commitment("accept card.red", salt)


# --- E09 starters, E10 first player --------------------------------------------------------


def test_e09_starters_the_rule_refuses_go_to_the_bottom_unseen() -> None:
    """R20 starts with a rank not divisible by 3: 3♣ and 6♦ go back, 5♠ is kept."""
    state = rigged(
        4,
        {1: ["2H.1"], 2: ["4H.1"], 3: ["7H.1"]},
        ["3C.1", "6D.1", "5S.1"],
        rule="start card.rank mod 3 != 0\naccept (card.rank + prev.rank) mod 3 == 0",
        options={"hand_size": 1},
    )
    r = state.round
    assert [(card_id(c), kept) for c, kept in r.starter] == [
        ("3C.1", False),
        ("6D.1", False),
        ("5S.1", True),
    ]
    assert main_line(state) == ["5S.1"]
    assert [card_id(c) for c in r.stock[-2:]] == ["3C.1", "6D.1"]
    assert r.pc == 0  # starters are not played cards (E12)
    record = game.full_record(state)["rounds"][0]["starter"]
    assert record == [
        {"card": None, "kept": False},
        {"card": None, "kept": False},
        {"card": "5S.1", "kept": True},
    ]


def test_e09_a_rule_with_no_lookback_needs_a_starter_it_accepts() -> None:
    state = rigged(
        4, {1: ["2H.1"], 2: ["4H.1"], 3: ["7H.1"]}, ["2S.1", "9D.1"], options={"hand_size": 1}
    )
    assert main_line(state) == ["9D.1"]


def test_e09_a_rule_looking_two_back_gets_two_starters() -> None:
    state = rigged(
        4,
        {1: ["2H.1"], 2: ["4H.1"], 3: ["7H.1"]},
        ["KD.1", "KH.1"],
        rule="accept if prev.color == prev2.color then card.color != prev.color "
        "else card.color == prev.color",
        options={"hand_size": 1},
    )
    assert main_line(state) == ["KD.1", "KH.1"]


def test_e10_the_first_player_counts_scientists_from_the_dealers_left_by_the_first_starter() -> (
    None
):
    for rank, first in (
        ("AH.1", 1),
        ("2H.1", 2),
        ("3H.1", 3),
        ("4H.1", 1),
        ("KH.1", 1),
        ("QH.1", 3),
    ):
        state = rigged(4, {1: ["2S.1"], 2: ["3S.1"], 3: ["4S.1"]}, [rank], options={"hand_size": 1})
        assert state.round.first_player == first, rank
        assert game.to_act(state) == first
    # Dealer 2: scientists 3, 0, 1; a 2 starts with seat 0.
    state = rigged(
        4, {3: ["2S.1"], 0: ["3S.1"], 1: ["4S.1"]}, ["2H.1"], dealer=2, options={"hand_size": 1}
    )
    assert game.to_act(state) == 0


def test_e10_with_several_starter_cards_the_first_counts() -> None:
    state = rigged(
        5,
        {1: ["2S.1"], 2: ["3S.1"], 3: ["4S.1"], 4: ["5S.1"]},
        ["3D.1", "KH.1"],
        rule="accept card.color == prev2.color",
        options={"hand_size": 1},
    )
    assert game.to_act(state) == 3


# --- the dealer's rule (NE-5.1-5.3, NE-22, E07, E08, E36) ------------------------------------


def _setup() -> tuple[game.State, int]:
    state = game.new_game(4, "standard", "rule", FAST)
    assert state.round.dealer is not None
    return state, state.round.dealer


def _refuse(state: game.State, seat: int, action: dict) -> game.IllegalAction:
    with pytest.raises(game.IllegalAction) as info:
        game.apply(state, seat, action)
    return info.value


def test_ne_22_a_rule_that_does_not_compile_or_is_rejected_is_refused_with_reasons() -> None:
    state, dealer = _setup()
    err = _refuse(state, dealer, {"type": "set_rule", "source": "accept card.colour"})
    assert err.code == "rule_rejected"
    assert "unknown_name at line 1" in err.message
    err = _refuse(state, dealer, {"type": "set_rule", "source": "accept true"})
    assert err.code == "rule_rejected"
    assert "never_wrong" in err.message


def test_ne_22_5_a_warning_needs_the_dealers_confirmation() -> None:
    state, dealer = _setup()
    rule = "accept card.rank == (prev.rank + (if len mod 2 == 1 then 1 else 2) - 1) mod 13 + 1"
    err = _refuse(state, dealer, {"type": "set_rule", "source": rule})
    assert err.code == "rule_rejected"
    assert "confirm_warnings" in err.message
    state = game.apply(
        state, dealer, {"type": "set_rule", "source": rule, "confirm_warnings": True}
    )
    assert state.round.rule is not None
    assert state.round.rule.sanity == "warn"


def test_e07_the_rule_cannot_change_once_committed() -> None:
    state, dealer = _setup()
    state = game.apply(state, dealer, {"type": "library_rule", "id": "R01"})
    err = _refuse(state, dealer, {"type": "set_rule", "source": "accept card.red"})
    assert err.code == "wrong_phase"


def test_e08_verified_hints_are_checked_and_free_text_is_marked_unverified() -> None:
    state, dealer = _setup()
    err = _refuse(
        state, dealer, {"type": "set_rule", "source": "accept card.red", "hints": [{"id": "H1"}]}
    )
    assert err.code == "rule_rejected"  # H1 "does not use suit or colour" is false
    err = _refuse(
        state, dealer, {"type": "set_rule", "source": "accept card.red", "hints": [{"id": "H99"}]}
    )
    assert err.code == "bad_action"
    state = game.apply(
        state,
        dealer,
        {
            "type": "set_rule",
            "source": "accept card.red",
            "hints": [{"id": "H4"}, {"id": "H5", "k": 0}],
            "free_hint": "Think warm.",
        },
    )
    hints = game.view(state, (dealer + 1) % 4)["round"]["rule"]["hints"]
    assert [(h["id"], h["verified"]) for h in hints] == [("H4", True), ("H5", True), (None, False)]
    assert hints[0]["text"] == "The rule does not use rank."
    assert hints[2]["text"] == "Think warm."


def test_e36_library_rules_by_id_or_difficulty_with_the_same_options() -> None:
    state, dealer = _setup()
    assert _refuse(state, dealer, {"type": "library_rule", "id": "R99"}).code == "bad_action"
    assert _refuse(state, dealer, {"type": "library_rule"}).code == "bad_action"
    err = _refuse(state, dealer, {"type": "library_rule", "id": "R37"})  # a "warn" rule
    assert err.code == "rule_rejected"
    picked = game.apply(
        state, dealer, {"type": "library_rule", "id": "R37", "confirm_warnings": True}
    )
    assert picked.round.rule is not None
    assert picked.round.rule.library_id == "R37"
    chosen = game.apply(state, dealer, {"type": "library_rule", "difficulty": "hard"})
    expected = pick_library(state.round.seed, "hard")
    assert chosen.round.rule is not None
    assert chosen.round.rule.library_id == expected.id
    assert expected in tier("hard")
    assert all(e.difficulty == 3 and e.verdict == "ok" for e in tier("hard"))
    assert chosen.round.rule.no_play_choice == "random"


def test_only_the_dealer_sets_the_rule() -> None:
    state, dealer = _setup()
    err = _refuse(state, (dealer + 1) % 4, {"type": "library_rule", "id": "R01"})
    assert err.code == "not_your_turn"


# --- settings and variants (NE-15, E43) --------------------------------------------------


def test_variants_set_hand_size_thresholds_and_the_house_dealer() -> None:
    assert game.new_game(4, "express", "v", FAST).settings.hand_size == 12  # V5
    short = game.new_game(4, "short", "v", FAST).settings  # V3
    assert (short.sudden_death, short.sudden_death_prophet) == (30, 20)
    with pytest.raises(ValueError, match="round_limit"):
        game.new_game(4, "practice", "v", FAST)  # E43: V4 needs a round limit
    practice = game.new_game(2, "practice", "v", {**FAST, "round_limit": 1})
    assert practice.round.dealer is None
    assert game.to_act(practice) is None  # the house picks the rule (an automatic step)
    practice = game.advance(practice)
    assert practice.round.rule is not None
    assert sorted(s for s in range(2) if practice.round.hands[s]) == [0, 1]


def test_e43_late_claims_and_going_out_as_prophet_are_not_offered() -> None:
    for flag in ("late_claims", "going_out_prophet"):
        with pytest.raises(ValueError, match="E43"):
            game.new_game(4, "standard", "v", {**FAST, flag: True})


def test_unknown_options_and_variants_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown option"):
        game.new_game(4, "standard", "v", {"jokers": True})
    with pytest.raises(ValueError, match="unknown variant"):
        game.new_game(4, "zendo", "v")
    with pytest.raises(ValueError, match="round_limit"):
        game.new_game(4, "standard", "v", {"round_limit": 4})  # fewer rounds than seats


def test_hands_are_dealt_in_card_order_and_the_dealer_holds_none() -> None:
    state = rigged(
        4,
        {1: ["KS.1", "2H.1"], 2: ["3S.1", "AS.1"], 3: ["4S.1", "5S.1"]},
        ["AH.1"],
        options={"hand_size": 2},
    )
    assert hand(state, 1) == ["2H.1", "KS.1"]
    assert hand(state, 0) == []
    assert stock_top(state, 0) == []
