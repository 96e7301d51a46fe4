"""Turns without a prophet: judging (NE-8, E13), no play (NE-9, E14, E15), the layout and
PC (NE-6, E11, E12), sudden death and expulsion (NE-11, E20, E22), the end of a round
(NE-12, E23-E25), turn order (NE-7.1) and refused actions (NE-31.3, E37)."""

from __future__ import annotations

import pytest

from engine import eleusis as game
from engine.eleusis.deck import choice_index, parse_card

from .tables import (
    event_types,
    hand,
    main_line,
    no_play,
    of_type,
    play,
    refused,
    rigged,
    stock_top,
    with_pc,
)

REDS = ["AH.1", "2H.1", "3H.1", "4H.1", "5H.1", "6H.1", "7H.1", "8H.1"]
BLACKS = ["AS.1", "2S.1", "3S.1", "4S.1", "5S.1", "6S.1", "7S.1", "8S.1"]


def table(no_play_choice: str = "random", **options: object) -> game.State:
    """Red-only rule, 4 seats (dealer 0), 6 cards each, seat 1 plays first (starter A♦)."""
    hands = {
        1: ["2H.1", "3H.1", "2S.1", "3S.1", "4S.1", "5S.1"],
        2: ["4H.1", "5H.1", "6S.1", "7S.1", "8S.1", "9S.1"],
        3: ["6H.1", "7H.1", "10S.1", "JS.1", "QS.1", "KS.1"],
    }
    then = ["2D.1", "3D.1", "4D.1", "5D.1", "6D.1", "7D.1", "8D.1", "9D.1", "10D.1", "JD.1"]
    return rigged(
        4,
        hands,
        ["AD.1"],
        then,
        options={"hand_size": 6, **options},
        no_play_choice=no_play_choice,
    )


# --- NE-8 judging --------------------------------------------------------------------------


def test_ne_8_1_a_right_card_joins_the_main_line() -> None:
    state = play(table(), 1, "2H.1")
    assert main_line(state) == ["AD.1", "2H.1"]
    assert state.round.main[-1].seat == 1
    assert state.round.pc == 1
    assert event_types(state) == ["verdict", "main"]
    assert of_type(state, "verdict")[0] == {
        "type": "verdict",
        "seat": 1,
        "verdict": "right",
        "sudden_death": False,
        "pc": 1,
    }
    assert game.to_act(state) == 2


def test_ne_8_1_a_wrong_card_goes_under_the_last_main_card_and_costs_two_cards() -> None:
    state = table()
    top = stock_top(state, 2)
    state = play(state, 1, "2S.1")
    assert of_type(state, "side") == [{"type": "side", "cards": ["2S.1"], "under": 0}]
    assert of_type(state, "draw") == [
        {"type": "draw", "seat": 1, "reason": "penalty", "cards": top}
    ]
    assert len(hand(state, 1)) == 6 - 1 + 2
    assert state.round.pc == 1


def test_ne_8_2_a_string_is_judged_card_by_card_and_joins_whole() -> None:
    state = play(table(), 1, "3H.1", "2H.1")
    assert main_line(state) == ["AD.1", "3H.1", "2H.1"]
    assert state.round.pc == 2


def test_e13_a_wrong_string_goes_whole_to_the_side_and_costs_two_per_card() -> None:
    state = play(table(), 1, "2H.1", "2S.1", "3H.1")  # only the middle card is wrong
    assert of_type(state, "side")[0]["cards"] == ["2H.1", "2S.1", "3H.1"]
    assert len(of_type(state, "draw")[0]["cards"]) == 6
    # NE-8.4: only "wrong" is announced; nothing says which card failed.
    assert of_type(state, "verdict")[0]["verdict"] == "wrong"
    assert state.round.turns[-1].truth == "wrong"
    assert main_line(state) == ["AD.1"]


# --- NE-9 no play ----------------------------------------------------------------------------


def test_e14_e11_a_correct_no_play_becomes_an_exhibit_and_a_hand_four_smaller() -> None:
    hands = {1: BLACKS[:6], 2: REDS[:6], 3: ["9S.1", "10S.1", "JS.1", "QS.1", "KS.1", "9C.1"]}
    state = rigged(4, hands, ["AD.1"], ["2D.1", "3D.1"], options={"hand_size": 6})
    state = no_play(state, 1)
    assert event_types(state) == ["verdict", "exhibit", "draw"]
    assert of_type(state, "exhibit")[0] == {
        "type": "exhibit",
        "seat": 1,
        "cards": sorted(BLACKS[:6], key=parse_card),
        "under": 0,
    }
    assert of_type(state, "draw")[0] == {
        "type": "draw",
        "seat": 1,
        "reason": "new_hand",
        "cards": ["2D.1", "3D.1"],
    }
    assert hand(state, 1) == ["2D.1", "3D.1"]
    assert state.round.pc == 0  # exhibits are not played cards (E12)
    assert main_line(state) == ["AD.1"]


def test_ne_9_2_a_correct_no_play_with_four_cards_or_fewer_ends_the_round() -> None:
    hands = {1: BLACKS[:4], 2: REDS[:4], 3: ["9S.1", "10S.1", "JS.1", "QS.1"]}
    state = rigged(4, hands, ["AD.1"], options={"hand_size": 4})
    state = no_play(state, 1)
    assert hand(state, 1) == []
    assert event_types(state) == ["verdict", "exhibit", "round_end"]
    assert state.round.end_reason == "out_of_cards"
    state = game.advance(state)
    assert state.rounds[0].score is not None
    assert state.rounds[0].score.out_bonus[1] == 4


def test_e15_a_wrong_no_play_places_a_random_right_card_and_costs_five() -> None:
    state = table()
    seq = state.seq + 1
    right = ["2H.1", "3H.1"]
    expected = right[choice_index(state.round.seed, seq, 2)]
    state = no_play(state, 1)
    assert event_types(state) == ["verdict", "chosen", "main", "draw"]
    assert of_type(state, "chosen")[0] == {"type": "chosen", "card": expected, "by": "random"}
    assert main_line(state)[-1] == expected
    assert state.round.pc == 1  # the placed card is a played card (E15)
    assert len(of_type(state, "draw")[0]["cards"]) == 5
    assert len(hand(state, 1)) == 6 - 1 + 5
    assert state.round.log[-1].shown is not None  # the shown hand stays public (NE-9.1)


def test_e15_a_human_dealer_who_chooses_picks_among_the_right_cards() -> None:
    state = no_play(table(no_play_choice="choose"), 1)
    assert state.round.phase == "dealer_choice"
    assert game.to_act(state) == 0
    assert state.round.log[-1].events == "[]"  # judged when the choice closes it
    assert [a["card"] for a in game.legal_actions(state, 0)] == ["2H.1", "3H.1"]
    assert refused(state, 0, {"type": "choose_card", "card": "2S.1"}) == "card_not_right"
    assert refused(state, 0, {"type": "choose_card", "card": "KD.2"}) == "card_not_in_hand"
    state = game.apply(state, 0, {"type": "choose_card", "card": "3H.1"})
    assert of_type(state, "chosen")[0]["by"] == "dealer"
    assert main_line(state)[-1] == "3H.1"
    assert game.to_act(state) == 2


def test_e15_one_right_card_or_a_bot_dealer_needs_no_choice() -> None:
    hands = {1: ["2H.1", "2S.1"], 2: ["4H.1", "4S.1"], 3: ["6H.1", "6S.1"]}
    state = rigged(4, hands, ["AD.1"], options={"hand_size": 2}, no_play_choice="choose")
    state = no_play(state, 1)  # only 2♥ is right
    assert of_type(state, "chosen")[0] == {"type": "chosen", "card": "2H.1", "by": "random"}
    bot_dealer = rigged(
        4,
        {1: ["2H.1", "3H.1"], 2: ["4H.1", "4S.1"], 3: ["6H.1", "6S.1"]},
        ["AD.1"],
        options={"hand_size": 2, "bots": [True, False, False, False]},
        no_play_choice="choose",
    )
    state = no_play(bot_dealer, 1)
    assert of_type(state, "chosen")[0]["by"] == "random"


# --- NE-6 markers, E12 PC ---------------------------------------------------------------------


def test_ne_6_5_a_white_marker_goes_on_the_card_that_brings_pc_to_ten() -> None:
    state = with_pc(table(), 8)
    state = play(state, 1, "2H.1", "3H.1")
    assert of_type(state, "marker") == [
        {"type": "marker", "color": "white", "card": "3H.1", "count": 10}
    ]
    assert event_types(state) == ["verdict", "main", "marker"]


def test_e12_penalty_cards_starters_and_exhibits_do_not_count() -> None:
    state = play(table(), 1, "2S.1")  # wrong: 1 played, 2 penalty cards
    assert state.round.pc == 1
    assert state.round.side_played == 1
    assert state.round.main_played == 0


# --- NE-11 sudden death --------------------------------------------------------------------


def test_e20_sudden_death_is_in_force_from_a_turn_starting_at_pc_40() -> None:
    state = play(with_pc(table(), 38), 1, "2S.1", "3S.1", "4S.1")  # PC 38 -> 41: judged normally
    assert of_type(state, "verdict")[0]["sudden_death"] is False
    assert len(of_type(state, "draw")[0]["cards"]) == 6
    state = play(state, 2, "6S.1")
    assert of_type(state, "verdict")[0]["sudden_death"] is True
    assert state.round.expelled == (2,)


def test_e22_an_expelled_player_draws_nothing_and_keeps_the_hand_for_scoring() -> None:
    state = play(with_pc(table(), 40), 1, "2S.1", "3S.1")
    assert event_types(state) == ["verdict", "side", "expel"]
    assert hand(state, 1) == ["2H.1", "3H.1", "4S.1", "5S.1"]
    assert game.to_act(state) == 2
    # An expelled player takes no more turns (NE-7.1).
    state = play(state, 2, "4H.1")
    state = play(state, 3, "6H.1")
    assert game.to_act(state) == 2


def test_e22_a_wrong_no_play_in_sudden_death_places_nothing() -> None:
    state = no_play(with_pc(table(), 40), 1)
    assert event_types(state) == ["verdict", "expel"]
    assert len(hand(state, 1)) == 6
    assert main_line(state) == ["AD.1"]
    assert state.round.pc == 40


def test_ne_9_4_a_correct_no_play_in_sudden_death_is_handled_as_usual() -> None:
    hands = {1: BLACKS[:6], 2: REDS[:6], 3: ["9S.1", "10S.1", "JS.1", "QS.1", "KS.1", "9C.1"]}
    state = rigged(4, hands, ["AD.1"], options={"hand_size": 6})
    state = no_play(with_pc(state, 45), 1)
    assert event_types(state) == ["verdict", "exhibit", "draw"]
    assert state.round.expelled == ()


# --- NE-12 the end of a round ------------------------------------------------------------------


def test_ne_12_1_the_round_ends_when_a_scientist_plays_the_last_card_right() -> None:
    hands = {1: ["2H.1", "3H.1"], 2: ["4H.1", "4S.1"], 3: ["6H.1", "6S.1"]}
    state = rigged(4, hands, ["AD.1"], options={"hand_size": 2})
    state = play(state, 1, "2H.1", "3H.1", prophet="declare")
    assert event_types(state) == ["verdict", "main", "round_end"]  # no declaration (E16 (d))
    assert state.round.prophet is None
    assert game.to_act(state) is None


def test_e24_the_round_ends_when_every_scientist_is_expelled() -> None:
    state = with_pc(table(), 40)
    for seat, card in ((1, "2S.1"), (2, "6S.1"), (3, "10S.1")):
        state = play(state, seat, card)
    assert state.round.end_reason == "all_expelled"
    assert of_type(state, "round_end") == [{"type": "round_end", "reason": "all_expelled"}]


def test_e25_the_round_ends_after_the_turn_limit() -> None:
    state = table(max_turns=2)
    state = play(state, 1, "2H.1")
    state = play(state, 2, "4H.1")
    assert state.round.end_reason == "turn_limit"


def test_or16_a_scientist_expelled_with_no_cards_left_ends_the_round() -> None:
    """NE-12.1 "however that happened": the wrong last cards go to the side line, the
    player is expelled holding nothing, and the round ends (Our ruling OR16)."""
    hands = {1: ["2S.1", "3S.1"], 2: ["4H.1", "4S.1"], 3: ["6H.1", "6S.1"]}
    state = rigged(4, hands, ["AD.1"], options={"hand_size": 2})
    state = play(with_pc(state, 40), 1, "2S.1", "3S.1")
    assert event_types(state) == ["verdict", "side", "expel", "round_end"]
    assert state.round.end_reason == "out_of_cards"
    state = game.advance(state)
    score = state.rounds[0].score
    assert score is not None
    assert score.held[1] == 0
    assert score.out_bonus[1] == 4


# --- NE-7.1 turn order ----------------------------------------------------------------------


def test_ne_7_1_turns_pass_clockwise_skipping_the_dealer() -> None:
    hands = {3: REDS[:2], 0: REDS[2:4], 1: REDS[4:6]}
    state = rigged(4, hands, ["AD.1"], ["8D.1", "9D.1"], dealer=2, options={"hand_size": 2})
    seen = []
    for _ in range(3):
        seat = game.to_act(state)
        assert seat is not None
        seen.append(seat)
        state = play(state, seat, hand(state, seat)[0])
    assert seen == [3, 0, 1]


# --- refusals (NE-28.3, NE-31.3, E37) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (1, {"type": "dance"}, "bad_action"),
        (1, {"cards": ["2H.1"]}, "bad_action"),
        (1, {"type": "play"}, "bad_action"),
        (1, {"type": "play", "cards": []}, "bad_action"),
        (1, {"type": "play", "cards": ["2H.1", "3H.1", "2S.1", "3S.1", "4S.1"]}, "bad_action"),
        (1, {"type": "play", "cards": "2H.1"}, "bad_action"),
        (1, {"type": "play", "cards": ["2H.1"], "prophet": "maybe"}, "bad_action"),
        (1, {"type": "play", "cards": ["2H.1"], "speed": 3}, "bad_action"),
        (1, {"type": "play", "cards": ["2H.1", "2H.1"]}, "duplicate_card"),
        (1, {"type": "play", "cards": ["4H.1"]}, "card_not_in_hand"),
        (1, {"type": "play", "cards": ["ZZ.9"]}, "card_not_in_hand"),
        (2, {"type": "play", "cards": ["4H.1"]}, "not_your_turn"),
        (0, {"type": "no_play"}, "not_your_turn"),
        (1, {"type": "call", "verdict": "right"}, "wrong_phase"),
        (1, {"type": "choose_card", "card": "2H.1"}, "wrong_phase"),
        (1, {"type": "declare_prophet"}, "wrong_phase"),
        (1, {"type": "set_prophecy", "source": "accept true"}, "not_eligible"),
        (1, {"type": "propose_end"}, "wrong_phase"),
        (9, {"type": "no_play"}, "not_your_turn"),
    ],
)
def test_refused_actions_change_nothing(seat: int, action: dict, code: str) -> None:
    assert refused(table(), seat, action) == code


def test_ne_28_3_refusals_never_depend_on_the_rule() -> None:
    """The same malformed or misplaced action is refused the same way under opposite rules."""
    red = table()
    black = rigged(
        4,
        {
            1: ["2H.1", "3H.1", "2S.1", "3S.1", "4S.1", "5S.1"],
            2: ["4H.1", "5H.1", "6S.1", "7S.1", "8S.1", "9S.1"],
            3: ["6H.1", "7H.1", "10S.1", "JS.1", "QS.1", "KS.1"],
        },
        ["AS.2"],
        rule="accept card.black",
        options={"hand_size": 6},
    )
    for action in (
        {"type": "play", "cards": ["2H.1", "2H.1"]},
        {"type": "play", "cards": ["KD.1"]},
        {"type": "play", "cards": ["2H.1", "3H.1", "2S.1", "3S.1", "4S.1"]},
    ):
        with pytest.raises(game.IllegalAction) as a:
            game.apply(red, 1, action)
        with pytest.raises(game.IllegalAction) as b:
            game.apply(black, 1, action)
        assert (a.value.code, a.value.message) == (b.value.code, b.value.message)


def test_the_game_refuses_everything_once_over() -> None:
    hands = {1: ["2H.1"], 2: ["4H.1"], 3: ["6H.1"]}
    state = rigged(4, hands, ["AD.1"], options={"hand_size": 1, "round_limit": 1})
    state = game.advance(play(state, 1, "2H.1"))
    assert game.is_over(state)
    assert game.to_act(state) is None
    assert game.legal_actions(state, 2) == []
    assert refused(state, 2, {"type": "no_play"}) == "wrong_phase"
    with pytest.raises(ValueError, match="over"):
        game.advance(state)
