"""The worked examples of NE-14, each as a test. Examples A-D are about scoring and are
checked on the score of NE-13 and on the end of a game; E and F are played through the
engine on rigged tables (tables.py)."""

from __future__ import annotations

from engine import eleusis as game
from engine.eleusis.scoring import ranking, score

from .tables import (
    call,
    event_types,
    events,
    hand,
    main_line,
    no_play,
    of_type,
    play,
    rigged,
    with_pc,
)

D, A, B, C, E, F = 0, 1, 2, 3, 4, 5


def test_ne_14_1_example_a_no_prophet_an_expulsion() -> None:
    """Hands A 0, B 6, C 9 (expelled, hand kept), E 12: H 12; A 16, B 6, C 3, E 0; D 16."""
    s = score(5, D, {A: 0, B: 6, C: 9, E: 12}, None)
    assert s.high == 12
    assert s.scores == (16, 16, 6, 3, 0)
    assert s.out_bonus == (None, 4, 0, 0, 0)
    assert s.dealer is not None
    assert (s.dealer.highest, s.dealer.cap, s.dealer.score) == (16, None, 16)


def test_ne_14_2_example_b_a_true_prophet_caps_the_dealer() -> None:
    """B declared at m = 12; 19 main and 7 side cards after the line; D = min(39, 24)."""
    s = score(6, D, {A: 5, B: 8, C: 0, E: 11, F: 14}, (B, 12, 19, 7))
    assert s.high == 14
    assert s.scores == (24, 9, 39, 18, 3, 0)
    assert s.prophet is not None
    assert (s.prophet.main, s.prophet.side, s.prophet.bonus) == (19, 7, 33)
    # "If B had declared at PC 22 (m = 22) with the same cards afterwards, D = 39."
    assert score(6, D, {A: 5, B: 8, C: 0, E: 11, F: 14}, (B, 22, 19, 7)).scores[D] == 39


def test_ne_14_3_example_c_a_false_prophet_then_a_true_one() -> None:
    """A false prophet's line plays no part; C (m = 31) collects 12 + 2 x 5; D 29."""
    s = score(4, D, {A: 13, B: 0, C: 6}, (C, 31, 12, 5))
    assert s.scores == (29, 0, 17, 29)
    assert s.dealer is not None
    assert s.dealer.cap == 62


def test_ne_14_4_example_d_a_game_that_ends_early() -> None:
    """S3 and S4 have not dealt: 10 each; S3 45 wins; S1 and S4 share second (E06)."""
    totals = [31, 40, 27, 35 + 10, 30 + 10]
    assert ranking(totals) == ((3,), (1, 4), (0,), (2,))


def test_ne_14_5_example_e_judging_strings_no_play_an_overthrow() -> None:
    """R09 (after odd play black, after even red), hands of 4 cards, starter 7♣."""
    state = rigged(
        5,
        {
            A: ["2C.1", "5S.1", "KS.1", "KC.1"],
            B: ["3D.1", "8S.1", "JS.1", "JC.1"],
            C: ["9S.1", "KH.1", "QD.1", "10H.1"],
            E: ["4H.1", "6D.1", "JD.1", "2S.1"],
        },
        ["7C.1"],
        ["AC.1", "AD.1", "AH.1", "AS.1", "2H.1", "3H.1", "4D.1", "5D.1", "6H.1", "7D.1"],
        rule="accept if prev.odd then card.black else card.red",
        options={"hand_size": 4},
        no_play_choice="choose",
    )
    # Starter 7♣; first player ((7 - 1) mod 4) + 1 = 3: C.
    assert main_line(state) == ["7C.1"]
    assert game.to_act(state) == C
    state = play(state, C, "9S.1")
    assert main_line(state) == ["7C.1", "9S.1"]
    assert state.round.pc == 1
    # E's string 4♥ 6♦ is wrong as a whole: both under 9♠, 4 penalty cards, PC 3.
    state = play(state, E, "4H.1", "6D.1")
    assert of_type(state, "verdict")[0]["verdict"] == "wrong"
    assert of_type(state, "side") == [{"type": "side", "cards": ["4H.1", "6D.1"], "under": 1}]
    assert of_type(state, "draw")[0]["cards"] == ["AC.1", "AD.1", "AH.1", "AS.1"]
    assert state.round.pc == 3
    state = play(state, A, "2C.1")
    assert state.round.pc == 4
    state = play(state, B, "3D.1", "8S.1")
    assert main_line(state) == ["7C.1", "9S.1", "2C.1", "3D.1", "8S.1"]
    assert state.round.pc == 6
    # C declares no play with K♥ Q♦ 10♥: all right after 8, so wrong; the dealer (policy
    # "choose") places Q♦; C keeps K♥ 10♥ and draws 5 cards; PC 7.
    state = no_play(state, C)
    assert state.round.phase == "dealer_choice"
    state = game.apply(state, D, {"type": "choose_card", "card": "QD.1"})
    assert of_type(state, "chosen") == [{"type": "chosen", "card": "QD.1", "by": "dealer"}]
    assert main_line(state)[-1] == "QD.1"
    assert {"KH.1", "10H.1"} <= set(hand(state, C))
    assert len(hand(state, C)) == 2 + 5
    assert state.round.pc == 7
    # E plays J♦ (right after Q) and declares: m = 8.
    state = play(state, E, "JD.1", prophet="declare")
    assert state.round.prophet == E
    assert of_type(state, "prophet") == [{"type": "prophet", "seat": E, "m": 8}]
    # A plays 5♠; E calls "wrong"; it is right (black after J): P4, E is overthrown and
    # takes back her hand plus 5 cards; 5♠ joins the main line; A is not penalised.
    e_hand = len(hand(state, E))
    a_hand = len(hand(state, A))
    state = play(state, A, "5S.1")
    state = call(state, "wrong")
    assert event_types(state) == ["approval", "verdict", "overthrow", "draw", "main"]
    assert events(state)[0] == {"type": "approval", "approved": False}
    assert state.round.prophet is None
    assert len(hand(state, E)) == e_hand + 5
    assert main_line(state)[-1] == "5S.1"
    assert len(hand(state, A)) == a_hand - 1
    # A may now declare prophet herself (E18): it is not her turn, but she just played.
    assert state.round.turns[-1].overthrown == E


def test_ne_14_6_example_f_sudden_death() -> None:
    """No prophet, red-only rule. PC 39 at the start of B's turn."""
    black = ["2S.1", "3S.1", "4S.1", "5S.1", "6S.1", "7S.1"]
    state = rigged(
        5,
        {
            A: ["2C.1", "3C.1", "4C.1", "5C.1", "6C.1", "7C.1"],
            B: ["8C.1", "9C.1", "10C.1", "JC.1", "QC.1", "KC.1"],
            C: ["8S.1", "9S.1", "10S.1", "JS.1", "QS.1", "KS.1"],
            E: black,
        },
        ["2H.1"],  # rank 2: B plays first (E10)
        ["3H.1", "4H.1", "5H.1", "6H.1", "7H.1", "8H.1", "9C.2", "10C.2"],
        options={"hand_size": 6},
    )
    assert game.to_act(state) == B
    state = with_pc(state, 39)
    # B's wrong string of 3: sudden death is not yet in force (E20): 6 penalty cards.
    state = play(state, B, "8C.1", "9C.1", "10C.1")
    assert of_type(state, "verdict")[0]["sudden_death"] is False
    assert len(of_type(state, "draw")[0]["cards"]) == 6
    assert state.round.pc == 42
    # C, at PC 42 >= 40: one wrong card, expelled with her hand, draws nothing; PC 43.
    state = play(state, C, "8S.1")
    assert event_types(state) == ["verdict", "side", "expel"]
    assert of_type(state, "verdict")[0]["sudden_death"] is True
    assert state.round.expelled == (C,)
    assert len(hand(state, C)) == 5
    assert state.round.pc == 43
    # E declares no play and is right: a hand four smaller (6 -> 2).
    state = no_play(state, E)
    assert of_type(state, "exhibit")[0]["cards"] == black
    assert len(hand(state, E)) == 2
    # A, B and E are expelled one by one: the round ends when the last is (NE-12.2).
    held = {}
    for seat in (A, B, E):
        assert game.to_act(state) == seat
        card = next(c for c in hand(state, seat) if c[-3] in "CS")
        state = play(state, seat, card)
        held[seat] = len(hand(state, seat))
    assert state.round.end_reason == "all_expelled"
    state = game.advance(state)
    end = state.rounds[0].score
    assert end is not None
    assert end.held[A] == held[A]
    assert end.held[E] == held[E]
    assert end.held[C] == 5
