"""Choosing, sinning and playing: turn order, follow suit, the first lead, the ring,
trump, face-down play, and the errors of refused actions."""

from __future__ import annotations

from typing import Any

import pytest

from engine import indulgence as game
from engine.indulgence.state import State
from tests.engine.support import DEAL_F, DEAL_R, play_script, scenario, start

# The ring deal: seat 1 sins holding M8 and M1; seat 2 holds M9 and M2.
RING_DEAL = (
    "M5 M6 M7 B1 B2 B3 B4 B5 B6",
    "M8 M1 O1 O2 O3 O4 O5 O6 O7",
    "M9 M2 S1 S2 S3 S4 S5 S6 S7",
    "M3 M4 B7 B8 B9 O8 O9 S8 S9",
)
# The trump deal: seat 2 sins holding S1..S8 (trump) and M2; seat 3 holds S9 and no Orsini.
TRUMP_DEAL = (
    "O9 B1 B2 B3 B4 B5 B6 M5 M6",
    "M9 O1 O2 O3 O4 O5 O6 O7 O8",
    "M2 S1 S2 S3 S4 S5 S6 S7 S8",
    "S9 M1 M3 M4 M7 M8 B7 B8 B9",
)


def refused(state: State, seat: Any, action: Any) -> game.IllegalAction:
    with pytest.raises(game.IllegalAction) as err:
        game.apply(state, seat, action)
    return err.value


def play(card: str, ring: bool = False) -> dict[str, Any]:
    return {"type": "play", "card": card, "indulgence": ring}


def test_a_new_game_waits_for_the_first_ruler_to_choose() -> None:
    state = game.new_game(4, "basic", "start")
    view = game.view(state, None)
    assert view["phase"] == "choosing_edict"
    assert view["to_act"] == view["ruler_seat"] == view["first_ruler"]
    assert view["round"] == 1
    assert view["hand_number"] == 1
    assert [s["florins"] for s in view["seats"]] == [30, 30, 30, 30]
    assert len(view["edict_row"]) == 3
    assert all(len(cards) == 9 for cards in game.full_record(state)["hands"][0]["deal"].values())
    assert game.legal_actions(state, (state.ruler + 1) % 4) == []


def test_sin_decisions_start_left_of_the_ruler_and_stop_at_the_first_sin() -> None:
    state = scenario(DEAL_R, ruler=2, row=("sixes", "any-borgia", "last-borgia"))
    state = game.apply(state, 2, {"type": "choose_edict", "edict": "sixes"})
    assert game.to_act(state) == 3
    assert game.legal_actions(state, 3) == [{"type": "pass"}, {"type": "sin"}]
    state = game.apply(state, 3, {"type": "pass"})
    assert game.to_act(state) == 0
    state = game.apply(state, 0, {"type": "sin"})
    assert state.sinner == 0
    assert state.phase is game.Phase.PLAYING
    assert game.to_act(state) == 0  # the sinner leads
    assert game.view(state, None)["sin_decisions"] == [
        {"seat": 3, "decision": "pass"},
        {"seat": 0, "decision": "sin"},
    ]


def test_when_all_pass_the_ruler_leads_and_never_decides() -> None:
    state = start(scenario(DEAL_R, ruler=1, row=("sixes", "any-borgia", "last-borgia")), "sixes")
    assert [seat for seat, _ in state.sin_decisions] == [2, 3, 0]
    assert state.sinner is None
    assert game.to_act(state) == 1


def test_you_must_follow_the_led_family() -> None:
    state = start(scenario(DEAL_R), "sixes")
    state = play_script(state, "B1")
    # Seat 1 holds no Borgia: it may play anything.
    assert len(game.legal_actions(state, 1)) == 9
    state = play_script(state, "M1 O1")
    err = refused(state, 3, play("S1"))
    assert err.code == "must_follow_suit"
    assert err.message == "You must follow borgia: you hold B9."
    assert game.legal_actions(state, 3) == [play("B9")]


def test_cards_not_in_hand_and_turns_are_checked() -> None:
    state = start(scenario(DEAL_R), "sixes")
    assert refused(state, 0, play("M1")).code == "card_not_in_hand"
    err = refused(state, 1, play("M1"))
    assert err.code == "not_your_turn"
    assert err.message == "It is seat 0's turn, not seat 1's."
    assert refused(state, 0, {"type": "pass"}).code == "wrong_phase"
    assert refused(state, 7, play("B1")).code == "invalid_seat"
    assert refused(state, True, play("B1")).code == "invalid_seat"


@pytest.mark.parametrize(
    "action",
    [
        None,
        [],
        "play",
        {},
        {"type": "dance"},
        {"type": 3},
        {"type": "play"},
        {"type": "play", "card": "X1"},
        {"type": "play", "card": "B10"},
        {"type": "play", "card": 5},
        {"type": "play", "card": "B1", "indulgence": 1},
        {"type": "play", "card": "B1", "indulgence": "yes"},
        {"type": "play", "card": "B1", "extra": True},
        {"type": "choose_edict"},
        {"type": "choose_edict", "edict": 12},
        {"type": "name_trump", "family": "purple"},
        {"type": "resolve_tie", "family": "borgia", "seat": "1"},
        {"type": "resolve_tie", "family": "borgia", "seat": 9},
        {"type": "resolve_tie", "family": "borgia", "seat": True},
        {"type": "sin", "really": True},
    ],
)
def test_malformed_actions_are_refused_and_change_nothing(action: Any) -> None:
    state = start(scenario(DEAL_R), "sixes")
    before = game.view(state, 0)
    assert refused(state, 0, action).code == "malformed_action"
    assert game.view(state, 0) == before


def test_a_play_without_the_indulgence_key_means_no_ring() -> None:
    state = start(scenario(DEAL_R), "sixes")
    after = game.apply(state, 0, {"type": "play", "card": "B1"})
    assert after.plays == ((0, 0, False),)
    assert game.full_record(after)["moves"][-1]["action"] == play("B1")


def test_the_first_leader_may_not_lead_a_named_family() -> None:
    state = start(scenario(DEAL_R, row=("any-borgia", "sixes", "last-medici")), "any-borgia")
    err = refused(state, 0, play("B1"))
    assert err.code == "first_lead_restricted"
    assert "borgia" in err.message
    assert "any-borgia" in err.message
    assert game.legal_actions(state, 0) == [play("M9")]
    state = play_script(state, "M9 M8 S9 S8")
    # Later tricks may be led with anything.
    assert {a["card"] for a in game.legal_actions(state, 0)} == {f"B{r}" for r in range(1, 9)}


def test_the_first_leader_may_lead_a_named_family_when_holding_nothing_else() -> None:
    state = start(scenario(DEAL_F, row=("any-borgia", "sixes", "last-medici")), "any-borgia")
    assert len(game.legal_actions(state, 0)) == 9
    game.apply(state, 0, play("B5"))


def test_the_restriction_covers_both_families_of_pairs_and_the_trump() -> None:
    row = ("pairs-orsini-sforza", "sixes", "any-trump")
    state = start(scenario(DEAL_R, variant="expert", row=row), None, trump="borgia")
    # Borgia (trump), Orsini and Sforza are named: seat 0 must lead M9.
    assert game.legal_actions(state, 0) == [play("M9")]


def test_the_sinner_is_restricted_too() -> None:
    state = start(
        scenario(DEAL_R, row=("any-medici", "sixes", "last-borgia")), "any-medici", sinner=1
    )
    assert refused(state, 1, play("M1")).code == "first_lead_restricted"
    assert game.legal_actions(state, 1) == [play("O9")]


def _ring_hand(sinner: int = 1) -> State:
    return start(
        scenario(RING_DEAL, row=("twos-threes", "sixes", "any-borgia")),
        "twos-threes",
        sinner=sinner,
    )


def test_the_ring_is_not_allowed_in_the_first_trick() -> None:
    state = _ring_hand()
    err = refused(state, 1, play("M8", ring=True))
    assert err.code == "indulgence_not_allowed"
    assert err.message == "The Indulgence ring cannot be used in the first trick."
    assert all(not a["indulgence"] for a in game.legal_actions(state, 1))


def test_only_the_sinner_may_use_the_ring() -> None:
    state = play_script(_ring_hand(), "M8 M2 M3 M5")
    state = play_script(state, "O1")
    assert (
        refused(state, 2, play("S1", ring=True)).message
        == "Only the sinner may use the Indulgence ring."
    )
    assert all(not a["indulgence"] for a in game.legal_actions(state, 2))


def test_a_ringed_card_counts_as_a_ten_of_its_family() -> None:
    state = play_script(_ring_hand(), "M8 M2 M3 M5")
    assert state.tricks[0].winner == 1
    assert play("M1", ring=True) in game.legal_actions(state, 1)
    state = play_script(state, "M1* M9 M4 M6")
    assert state.tricks[1].winner == 1  # the ringed M1 beats M9
    assert state.ring_used
    view = game.view(state, None)
    assert view["indulgence_used"] is True
    assert view["tricks"][1]["plays"][0] == {"seat": 1, "card": "M1", "indulgence": True}
    # Once per hand.
    assert refused(state, 1, play("O1", ring=True)).message == (
        "The Indulgence ring has already been used this hand."
    )
    # For scoring it is a 1 again: no 2s or 3s in that trick, the first trick's count.
    assert state.taken[1] & (1 << 9)  # M1 taken as a plain card


def test_a_ringed_card_of_another_family_cannot_win() -> None:
    state = play_script(_ring_hand(), "M8 M2 M3 M5 | O1 S1 O9 B1")
    assert [t.winner for t in state.tricks] == [1, 3]
    state = play_script(state, "B7 B2 O7* S2")
    assert state.tricks[2].winner == 3  # B7 wins: a ringed O7 is an Orsini 10
    assert state.ring_used


def _trump_hand() -> State:
    state = scenario(TRUMP_DEAL, variant="expert", row=("any-trump", "sixes", "any-borgia"))
    return start(state, "any-trump", sinner=2, trump="sforza")


def test_the_ruler_names_trump_before_anyone_sins() -> None:
    state = scenario(TRUMP_DEAL, variant="expert", row=("any-trump", "sixes", "any-borgia"))
    state = game.apply(state, 0, {"type": "choose_edict", "edict": "any-trump"})
    assert state.phase is game.Phase.NAMING_TRUMP
    assert game.to_act(state) == 0
    assert [a["family"] for a in game.legal_actions(state, 0)] == [
        "borgia",
        "medici",
        "orsini",
        "sforza",
    ]
    assert refused(state, 1, {"type": "pass"}).code == "not_your_turn"
    state = game.apply(state, 0, {"type": "name_trump", "family": "sforza"})
    assert game.view(state, 3)["trump"] == "sforza"
    assert state.phase is game.Phase.SIN_DECISION
    assert game.to_act(state) == 1


def test_the_highest_trump_beats_the_led_family() -> None:
    state = play_script(_trump_hand(), "M2 M1 M5 M9")
    assert state.tricks[0].winner == 1  # no trump played: the highest Medici
    state = play_script(state, "O1 S1 S9 O9")
    assert state.tricks[1].winner == 3  # S9 is the highest trump
    # Seat 3 took a trump: the sin on "any trump" failed, the hand is over.
    assert state.phase is game.Phase.SETTLING
    assert state.ended_early


def test_a_ringed_trump_is_a_ten_of_trumps() -> None:
    state = play_script(_trump_hand(), "M2 M1 M5 M9 | O1 S1* S9 O9")
    assert state.tricks[1].winner == 2
    assert state.phase is game.Phase.PLAYING


FACE_DOWN_DEAL = RING_DEAL


def test_face_down_play_hides_other_cards_until_the_trick_is_complete() -> None:
    state = scenario(FACE_DOWN_DEAL, variant="expert", row=("no-tricks", "sixes", "any-borgia"))
    state = start(state, "no-tricks")
    state = play_script(state, "M5")
    for seat in (1, 2, 3, None):
        trick = game.view(state, seat)["current_trick"]
        assert trick["led_family"] == "medici"
        assert trick["plays"] == [{"seat": 0, "card": None, "indulgence": False}]
    assert game.view(state, 0)["current_trick"]["plays"][0]["card"] == "M5"
    assert game.view(state, 1)["face_down"] is True
    # Followers must still follow the (announced) led family.
    assert refused(state, 1, play("O1")).code == "must_follow_suit"
    state = play_script(state, "M8")
    assert [p["card"] for p in game.view(state, 1)["current_trick"]["plays"]] == [None, "M8"]
    state = play_script(state, "M2 M3")
    view = game.view(state, 2)
    assert view["current_trick"]["plays"] == []
    assert [p["card"] for p in view["tricks"][0]["plays"]] == ["M5", "M8", "M2", "M3"]


def test_other_hands_never_appear_in_a_view() -> None:
    state = start(scenario(DEAL_R), "sixes")
    view = game.view(state, 1)
    assert view["my_hand"] == DEAL_R[1].split()
    assert view["hand_counts"] == {"0": 9, "1": 9, "2": 9, "3": 9}
    assert game.view(state, None)["my_hand"] == []
    assert "seed" not in view
    text = repr(view)
    assert "B9" not in text
    assert "S9" not in text


def test_actions_after_the_hand_ended_wait_for_the_settlement() -> None:
    state = play_script(_trump_hand(), "M2 M1 M5 M9 | O1 S1 S9 O9")
    assert game.to_act(state) is None
    err = refused(state, 0, play("B1"))
    assert err.code == "not_your_turn"
    assert "settled" in err.message
    assert game.legal_actions(state, 0) == []
    with pytest.raises(game.IllegalAction) as no_step:
        game.advance(start(scenario(DEAL_R), "sixes"))
    assert no_step.value.code == "no_automatic_step"
