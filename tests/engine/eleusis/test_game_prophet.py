"""The prophet (NE-10, NE-26): who may declare (E16, E28, E39), taking office, the calls
and their nine outcomes (NE-10.7), overthrows (E17, E18), sudden death with a prophet
(E21), black markers, a true prophet (E19, E24), missed calls (E29) and the standing
prophecy (NE-26.5, E38)."""

from __future__ import annotations

import json

import pytest

from engine import eleusis as game
from engine.eleusis.deck import choice_index

from .tables import (
    call,
    event_types,
    events,
    hand,
    main_line,
    no_play,
    of_type,
    play,
    refused,
    rigged,
    with_pc,
)

MIXED = {
    1: ["2H.1", "3H.1", "2S.1", "3S.1", "4S.1", "5S.1"],
    2: ["4H.1", "5H.1", "6S.1", "7S.1", "8S.1", "9S.1"],
    3: ["6H.1", "7H.1", "10S.1", "JS.1", "QS.1", "KS.1"],
    4: ["8H.1", "9H.1", "2C.1", "3C.1", "4C.1", "5C.1"],
}
ALL_BLACK_2 = {**MIXED, 2: ["6S.1", "7S.1", "8S.1", "9S.1", "10C.1", "JC.1"]}
THEN = ["2D.1", "3D.1", "4D.1", "5D.1", "6D.1", "7D.1", "8D.1", "9D.1", "10D.1", "JD.1", "QD.1"]


def table(hands: dict[int, list[str]] = MIXED, **options: object) -> game.State:
    """Red-only rule, 5 seats (dealer 0), seat 1 first; seat 1 plays 2♥ and declares."""
    state = rigged(5, hands, ["AD.1"], THEN, options={"hand_size": 6, **options})
    return play(state, 1, "2H.1", prophet="declare")


def test_ne_10_2_taking_office() -> None:
    state = table()
    assert state.round.prophet == 1
    assert of_type(state, "prophet") == [{"type": "prophet", "seat": 1, "m": 1}]
    assert event_types(state) == [
        "verdict",
        "main",
        "prophet",
    ]  # the declaring play is before the line
    line = state.round.lines[0]
    assert (line.m, line.main_at) == (1, 2)
    assert len(hand(state, 1)) == 5  # set aside, kept
    # The prophet takes no turns while in office (NE-7.1).
    order = []
    for seat in (2, 3, 4, 2):
        assert game.to_act(state) == seat
        order.append(seat)
        red = next(c for c in hand(state, seat) if c[-3] in "HD")
        state = play(state, seat, red)
        state = call(state, "right")
    assert 1 not in order


CASES = [
    # case, table, action, call (verdict, card), approved, overthrown, expected events
    ("P1", MIXED, ("play", "4H.1"), ("right", None), True, ["approval", "verdict", "main"]),
    (
        "P2",
        MIXED,
        ("play", "6S.1"),
        ("right", None),
        False,
        ["approval", "verdict", "overthrow", "draw", "side"],
    ),
    ("P3", MIXED, ("play", "6S.1"), ("wrong", None), True, ["approval", "verdict", "side", "draw"]),
    (
        "P4",
        MIXED,
        ("play", "4H.1"),
        ("wrong", None),
        False,
        ["approval", "verdict", "overthrow", "draw", "main"],
    ),
    (
        "N1",
        ALL_BLACK_2,
        ("no_play", None),
        ("correct", None),
        True,
        ["approval", "verdict", "exhibit", "draw"],
    ),
    (
        "N2",
        MIXED,
        ("no_play", None),
        ("correct", None),
        False,
        ["approval", "verdict", "overthrow", "draw", "chosen", "main"],
    ),
    (
        "N3",
        MIXED,
        ("no_play", None),
        ("wrong", "5H.1"),
        True,
        ["approval", "verdict", "chosen", "main", "draw"],
    ),
    (
        "N4",
        MIXED,
        ("no_play", None),
        ("wrong", "6S.1"),
        False,
        ["approval", "verdict", "overthrow", "draw", "chosen", "main"],
    ),
    (
        "N5",
        ALL_BLACK_2,
        ("no_play", None),
        ("wrong", "6S.1"),
        False,
        ["approval", "verdict", "overthrow", "draw", "exhibit", "draw"],
    ),
]


@pytest.mark.parametrize(
    ("case", "hands", "turn", "verdict", "approved", "expected"), CASES, ids=[c[0] for c in CASES]
)
def test_ne_10_7_every_outcome_of_a_call(
    case: str,
    hands: dict[int, list[str]],
    turn: tuple[str, str | None],
    verdict: tuple[str, str | None],
    approved: bool,
    expected: list[str],
) -> None:
    state = table(hands)
    before = {s: len(hand(state, s)) for s in (1, 2)}
    kind, card = turn
    state = play(state, 2, card) if kind == "play" and card else no_play(state, 2)
    assert state.round.phase == "prophet_call"
    assert state.round.log[-1].events == "[]"  # pending: judged only when the call closes it
    assert game.to_act(state) == 1
    state = call(state, *verdict)
    assert event_types(state) == expected
    assert events(state)[0] == {"type": "approval", "approved": approved}
    r = state.round
    if approved:
        assert r.prophet == 1
        assert len(hand(state, 1)) == before[1]
    else:  # overthrown: hand back plus 5 cards (NE-10.6)
        assert r.prophet is None
        assert len(hand(state, 1)) == before[1] + 5
        overthrow = of_type(state, "overthrow")[0]
        assert overthrow["returned"] == (verdict[1] if case in ("N4", "N5") else None)
        assert next(d for d in of_type(state, "draw") if d["seat"] == 1)["reason"] == "prophet"
    player_draws = [d for d in of_type(state, "draw") if d["seat"] == 2]
    if case == "P3":
        assert len(player_draws[0]["cards"]) == 2
    elif case == "N3":
        assert len(player_draws[0]["cards"]) == 5
        assert of_type(state, "chosen")[0] == {"type": "chosen", "card": "5H.1", "by": "prophet"}
    elif case in ("N1", "N5"):
        assert player_draws[0]["reason"] == "new_hand"
        assert len(hand(state, 2)) == 2
    else:
        assert player_draws == []  # the player is not penalised (NE-10.6)
    if case in ("N2", "N4"):  # the dealer's random right card, never the named wrong one
        chosen = of_type(state, "chosen")[0]
        right = ["4H.1", "5H.1"]
        assert chosen["card"] == right[choice_index(r.seed, r.turns[-1].seq, 2)]
        assert chosen["by"] == "random"
    if case == "N4":
        assert "6S.1" in hand(state, 2)  # the wrongly named card goes back to the hand


def test_e17_an_overthrow_spares_the_player_expulsion_in_sudden_death() -> None:
    state = with_pc(table(), 31)  # PC - m = 30: sudden death with a prophet (NE-11.2)
    state = play(state, 2, "6S.1")
    state = call(state, "right")  # P2
    assert of_type(state, "verdict")[0]["sudden_death"] is True
    assert state.round.expelled == ()
    assert [d for d in of_type(state, "draw") if d["seat"] == 2] == []


def test_e18_the_player_whose_turn_overthrew_the_prophet_may_declare() -> None:
    state = table()
    state = play(state, 2, "4H.1", prophet="declare")
    state = call(state, "wrong")  # P4
    assert event_types(state)[-1] == "prophet"
    assert state.round.prophet == 2
    assert [line.seat for line in state.round.lines] == [1, 2]


def test_ne_10_1_b_a_false_prophet_never_returns() -> None:
    state = play(table(), 2, "4H.1")
    state = call(state, "wrong")  # 1 overthrown
    for seat in (3, 4, 1):
        state = play(state, seat, hand(state, seat)[0], prophet="declare" if seat == 1 else "no")
    assert state.round.prophet is None


def test_ne_10_1_a_one_prophet_at_a_time() -> None:
    state = play(table(), 2, "4H.1", prophet="declare")
    state = call(state, "right")
    assert state.round.prophet == 1
    assert "prophet" not in event_types(state)


def test_ne_10_1_c_two_other_scientists_must_still_be_in_the_round() -> None:
    state = rigged(5, MIXED, ["AD.1"], THEN, options={"hand_size": 6})
    state = with_pc(state, 40)
    state = play(state, 1, "2S.1")  # expelled
    state = play(state, 2, "6S.1")  # expelled
    state = play(state, 3, "6H.1", prophet="declare")  # only seat 4 is left besides 3
    assert state.round.prophet is None
    state = play(state, 4, "8H.1", prophet="declare")
    assert state.round.prophet is None


def test_e28_asking_to_declare_when_not_allowed_does_nothing() -> None:
    state = play(table(), 2, "4H.1", prophet="declare")  # a prophet is in office
    state = call(state, "right")
    assert state.round.prophet == 1
    assert game.to_act(state) == 3


def test_e39_decide_after_opens_a_post_play_phase_if_still_allowed() -> None:
    state = rigged(5, MIXED, ["AD.1"], THEN, options={"hand_size": 6})
    state = play(state, 1, "2H.1", prophet="decide_after")
    assert state.round.phase == "post_play"
    assert game.to_act(state) == 1
    assert game.legal_actions(state, 1) == [{"type": "declare_prophet"}, {"type": "pass"}]
    passed = game.apply(state, 1, {"type": "pass"})
    assert (passed.round.prophet, game.to_act(passed)) == (None, 2)
    declared = game.apply(state, 1, {"type": "declare_prophet"})
    assert declared.round.prophet == 1
    assert of_type(declared, "prophet") == [{"type": "prophet", "seat": 1, "m": 1}]
    assert declared.round.log[-1].phase == "post_play"
    # With a prophet in office, decide_after opens nothing (E39).
    state = play(declared, 2, "4H.1", prophet="decide_after")
    state = call(state, "right")
    assert state.round.phase == "turn"


def test_e21_a_prophet_suspends_white_sudden_death_and_an_overthrow_restores_it() -> None:
    state = rigged(5, MIXED, ["AD.1"], THEN, options={"hand_size": 6})
    state = with_pc(state, 44)
    state = play(state, 1, "2H.1", prophet="declare")  # PC 45 >= 40, but m = 45
    state = play(state, 2, "6S.1")
    state = call(state, "wrong")  # P3, no sudden death (PC - m = 1)
    assert of_type(state, "verdict")[0]["sudden_death"] is False
    assert len(next(d for d in of_type(state, "draw") if d["seat"] == 2)["cards"]) == 2
    state = play(state, 3, "10S.1")
    state = call(state, "right")  # P2: overthrown; the white count (PC 47) rules again
    state = play(state, 4, "2C.1")
    assert of_type(state, "verdict")[0]["sudden_death"] is True
    assert state.round.expelled == (4,)


def test_ne_6_6_black_markers_count_from_m_and_go_with_an_overthrow() -> None:
    state = with_pc(table(), 10)  # m = 1, PC 10: the next card brings PC - m to 10
    state = play(state, 2, "4H.1")
    state = call(state, "right")
    assert of_type(state, "marker") == [
        {"type": "marker", "color": "black", "card": "4H.1", "count": 10}
    ]
    state = play(state, 3, "6H.1")
    state = call(state, "wrong")  # P4: overthrown
    assert [m.removed for m in state.round.markers] == [True]
    assert game.view(state, 2)["round"]["markers"][0]["removed"] is True
    assert state.round.lines[0].overthrown_seq == state.seq


def test_e19_e24_a_prophet_left_alone_is_a_true_prophet() -> None:
    state = with_pc(table(), 31)  # sudden death with the prophet (PC - m = 30)
    for seat, card in ((2, "6S.1"), (3, "10S.1"), (4, "2C.1")):
        state = play(state, seat, card)
        state = call(state, "wrong")  # P3 in sudden death: expelled
    assert state.round.end_reason == "all_expelled"
    state = game.advance(state)
    score = state.rounds[0].score
    assert score is not None
    assert score.prophet is not None
    # with_pc counted 30 main-line cards after the line (PC 1 -> 31), then 3 wrong cards.
    assert (score.prophet.seat, score.prophet.m) == (1, 1)
    assert (score.prophet.main, score.prophet.side) == (30, 3)
    assert score.prophet.bonus == 30 + 2 * 3  # E26: 1 per main-line card, 2 per side-line card
    assert score.dealer is not None
    assert score.dealer.cap == 2  # 2 x m (NE-13.5)
    assert score.held[1] == 5  # the set-aside hand counts (NE-13.1)


# --- E29 missed calls ----------------------------------------------------------------------


def test_e29_a_rated_prophet_who_misses_a_call_is_overthrown() -> None:
    state = play(table(rated=True), 2, "6S.1")
    state = game.timeout(state)
    entry = state.round.log[-1]
    assert (entry.by, json.loads(entry.action)) == ("timeout", {"type": "call", "verdict": None})
    assert event_types(state) == ["approval", "verdict", "overthrow", "draw", "side"]
    assert [d for d in of_type(state, "draw") if d["seat"] == 2] == []
    assert of_type(state, "approval") == [{"type": "approval", "approved": False}]  # OR35


def test_e29_an_unrated_missed_call_goes_to_the_autopilot() -> None:
    state = play(table(), 2, "6S.1")
    with pytest.raises(ValueError, match="autopilot"):
        game.timeout(state)
    assert refused(state, 1, {"type": "call", "verdict": None}) == "bad_action"


def test_ne_27_missed_post_play_and_dealer_choice_take_their_defaults() -> None:
    state = rigged(5, MIXED, ["AD.1"], THEN, options={"hand_size": 6})
    state = game.timeout(play(state, 1, "2H.1", prophet="decide_after"))
    assert json.loads(state.round.log[-1].action) == {"type": "pass"}
    assert state.round.log[-1].by == "timeout"
    state = rigged(5, MIXED, ["AD.1"], THEN, options={"hand_size": 6}, no_play_choice="choose")
    state = game.timeout(no_play(state, 1))
    assert of_type(state, "chosen")[0]["by"] == "random"
    assert state.round.log[-1].phase == "dealer_choice"


# --- calls that do not fit (NE-31.3, E37) -----------------------------------------------------


def test_a_call_must_fit_the_pending_play() -> None:
    state = play(table(), 2, "4H.1")
    assert refused(state, 1, {"type": "call", "verdict": "correct"}) == "bad_action"
    assert refused(state, 1, {"type": "call", "verdict": "right", "card": "4H.1"}) == "bad_action"
    assert refused(state, 2, {"type": "call", "verdict": "right"}) == "not_your_turn"
    state = no_play(table(), 2)
    assert refused(state, 1, {"type": "call", "verdict": "wrong"}) == "bad_action"
    assert (
        refused(state, 1, {"type": "call", "verdict": "wrong", "card": "2H.1"}) == "card_not_shown"
    )
    assert refused(state, 1, {"type": "call", "verdict": "right"}) == "bad_action"
    legal = game.legal_actions(state, 1)
    assert {"type": "call", "verdict": "correct"} in legal
    assert sum(1 for a in legal if a.get("verdict") == "wrong") == 6  # every shown card


# --- the standing prophecy (NE-26.5, E38) ------------------------------------------------------


def test_ne_26_5_a_standing_prophecy_calls_at_once() -> None:
    state = table()
    state = game.apply(state, 1, {"type": "set_prophecy", "source": "accept card.red"})
    assert state.round.prophecy == "accept card.red"
    state = play(state, 2, "6S.1")
    log = state.round.log
    assert [e.by for e in log[-2:]] == ["human", "prophecy"]
    assert json.loads(log[-1].action) == {"type": "call", "verdict": "wrong"}
    assert (log[-1].seat, log[-1].phase) == (1, "prophet_call")
    assert game.to_act(state) == 3  # nobody waited


def test_ne_26_5_on_a_no_play_the_prophecy_names_the_first_right_card_in_card_order() -> None:
    state = game.apply(table(), 1, {"type": "set_prophecy", "source": "accept card.rank >= 5"})
    state = no_play(state, 2)  # 4♥ 5♥ 6♠ 7♠ 8♠ 9♠: by the prophecy 5♥ comes first
    assert json.loads(state.round.log[-1].action) == {
        "type": "call",
        "verdict": "wrong",
        "card": "5H.1",
    }
    assert of_type(state, "chosen")[0] == {"type": "chosen", "card": "5H.1", "by": "prophet"}


def test_e38_a_prophecy_set_during_an_open_call_answers_it() -> None:
    state = play(table(), 2, "4H.1")
    state = game.apply(state, 1, {"type": "set_prophecy", "source": "accept card.black"})
    log = state.round.log
    assert [(e.phase, e.by) for e in log[-2:]] == [
        ("prophet_call", "human"),
        ("prophet_call", "prophecy"),
    ]
    assert state.round.prophet is None  # it called 4♥ wrong: P4
    assert state.round.prophecy is None  # gone with the office


def test_a_prophecy_must_compile_and_fit_the_main_line_and_belongs_to_the_prophet() -> None:
    state = table()
    assert refused(state, 1, {"type": "set_prophecy", "source": "accept card.colour"}) == (
        "prophecy_invalid"
    )
    assert refused(
        state, 1, {"type": "set_prophecy", "source": "accept card.red == prev4.red"}
    ) == ("prophecy_invalid")
    assert refused(state, 2, {"type": "set_prophecy", "source": "accept true"}) == "not_eligible"
    withdrawn = game.apply(
        game.apply(state, 1, {"type": "set_prophecy", "source": "accept true"}),
        1,
        {"type": "set_prophecy", "source": None},
    )
    assert withdrawn.round.prophecy is None
    assert game.view(state, 2)["my_prophecy"] is None
    with_one = game.apply(state, 1, {"type": "set_prophecy", "source": "accept true"})
    assert game.view(with_one, 1)["my_prophecy"] == "accept true"
    assert "accept true" not in json.dumps(game.view(with_one, 2))


# --- the sealed pending play (NE-26.3, NE-28.3) ----------------------------------------------


def test_ne_28_3_a_pending_play_is_public_but_its_verdict_and_intent_are_not() -> None:
    state = play(table(), 2, "6S.1", prophet="declare")
    for seat in (None, 0, 1, 3):
        v = game.view(state, seat)
        assert v["round"]["pending"]["cards"] == ["6S.1"]
        assert "verdict" not in json.dumps(v["round"]["log"][-1]["events"])
        entry = v["round"]["log"][-1]
        assert entry["action"]["prophet"] is None
        assert entry["withheld"] == ["prophet"]
        assert len(v["round"]["turns"]) == 1  # only seat 1's judged play
    own = game.view(state, 2)["round"]["log"][-1]
    assert own["action"]["prophet"] == "declare"
    assert main_line(state) == ["AD.1", "2H.1"]
