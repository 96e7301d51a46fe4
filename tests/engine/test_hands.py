"""Whole hands: early end, ties, the papal bull, bankruptcy, the winner, the edict row."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import indulgence as game
from engine.cards import mask_from_ids
from engine.indulgence.edicts import CATALOG, EDICT_INDEX
from engine.indulgence.settlement import FAIL, Progress, edict_decided, sin_status
from tests.engine.support import (
    DEAL_F,
    DEAL_R,
    highest,
    lowest,
    payments,
    play_out,
    play_script,
    random_game,
    scenario,
    settled,
    start,
)

# Most of a family, no sinner: seats 2 and 3 tie on Borgias and on Orsinis (4 each).
TIE_DEAL = (
    "B1 B5 M3 M7 O1 O5 S3 S8 B7",
    "B2 B6 M9 M4 O2 O6 S9 S4 M8",
    "B3 B8 M1 M5 O3 O8 S1 S5 O7",
    "B9 B4 M2 M6 O9 O4 S2 S6 S7",
)
TIE_SCRIPT = (
    "B1 B2 B3 B9 | B4 B5 B6 B8 | M1 M2 M3 M9 | M4 M5 M6 M7 | O1 O2 O3 O9 | "
    "O4 O5 O6 O8 | S1 S2 S3 S9 | S4 S5 S6 S8 | B7 M8 O7 S7"
)
# The Ruler (seat 0) and seat 1 tie on Borgias.
RULER_TIE_DEAL = (
    "B9 B4 M9 M8 O1 O4 S2 S5 M7",
    "B1 B8 M1 M4 O2 O5 S3 S6 O7",
    "B2 B5 M2 M5 O3 O6 S9 S8 S7",
    "B3 B6 M3 M6 O9 O8 S1 S4 B7",
)
RULER_TIE_SCRIPT = (
    "B9 B1 B2 B3 | B4 B8 B5 B6 | M1 M2 M3 M9 | M8 M4 M5 M6 | O1 O2 O3 O9 | "
    "O8 O4 O5 O6 | S1 S2 S3 S9 | S8 S4 S5 S6 | S7 B7 M7 O7"
)
# A sinner (seat 1) on "most of a family", tied with seat 2 on Borgias; decided after 8 tricks.
SIN_TIE_DEAL = (
    "M3 O3 S3 B3 B6 O8 M4 O6 S4",
    "M9 O9 S9 B9 B4 O5 M8 O7 S8",
    "M1 O1 S1 B1 B8 O4 M5 S5 S6",
    "M2 O2 S2 B2 B5 B7 M6 M7 S7",
)
SIN_TIE_SCRIPT = (
    "M9 M1 M2 M3 | O9 O1 O2 O3 | S9 S1 S2 S3 | B9 B1 B2 B3 | "
    "B4 B8 B5 B6 | O4 B7 O8 O5 | M4 M8 M5 M7 | O7 S5 M6 O6"
)
MOST_ROW = ("most-of-family", "sixes", "any-trump")


def tie(family: str, seat: int) -> dict[str, object]:
    return {"type": "resolve_tie", "family": family, "seat": seat}


# --- Ties -------------------------------------------------------------------------------


def test_the_ruler_resolves_each_tie_in_family_order() -> None:
    state = play_script(
        start(scenario(TIE_DEAL, variant="expert", row=MOST_ROW), "most-of-family"), TIE_SCRIPT
    )
    assert len(state.tricks) == 9
    assert state.phase is game.Phase.RESOLVING_TIES
    assert game.to_act(state) == 0
    view = game.view(state, 0)
    assert view["pending_tie"] == {"family": "borgia", "chooser": 0, "seats": [2, 3]}
    assert view["legal_actions"] == [tie("borgia", 2), tie("borgia", 3)]
    with pytest.raises(game.IllegalAction) as err:
        game.apply(state, 0, tie("orsini", 2))
    assert err.value.code == "invalid_tie_choice"
    with pytest.raises(game.IllegalAction) as err:
        game.apply(state, 0, tie("borgia", 0))
    assert err.value.code == "invalid_tie_choice"
    with pytest.raises(game.IllegalAction) as err:
        game.apply(state, 2, tie("borgia", 2))
    assert err.value.code == "not_your_turn"
    state = game.apply(state, 0, tie("borgia", 2))
    assert game.legal_actions(state, 0) == [tie("orsini", 2), tie("orsini", 3)]
    state = game.apply(state, 0, tie("orsini", 3))
    assert state.phase is game.Phase.SETTLING
    _, hand = settled(state)
    assert hand["tie_choices"] == [
        {"family": "borgia", "chooser": 0, "seat": 2},
        {"family": "orsini", "chooser": 0, "seat": 3},
    ]
    # Seat 0 (the Ruler) has the most Medicis and Sforzas: that costs nobody anything.
    assert payments(hand) == [
        (2, 0, 2, "most-of-family: most Borgias"),
        (3, 0, 2, "most-of-family: most Orsinis"),
    ]


def test_a_ruler_tied_for_the_most_may_choose_itself_and_nobody_pays() -> None:
    state = scenario(RULER_TIE_DEAL, variant="expert", row=MOST_ROW)
    state = play_script(start(state, "most-of-family"), RULER_TIE_SCRIPT)
    assert game.legal_actions(state, 0) == [tie("borgia", 0), tie("borgia", 1)]
    _, hand = settled(game.apply(state, 0, tie("borgia", 0)))
    assert payments(hand) == [
        (2, 0, 2, "most-of-family: most Sforzas"),
        (3, 0, 2, "most-of-family: most Orsinis"),
    ]
    _, hand = settled(game.apply(state, 0, tie("borgia", 1)))
    assert payments(hand)[0] == (1, 0, 2, "most-of-family: most Borgias")


def _sin_tie_state() -> game.State:
    state = scenario(SIN_TIE_DEAL, variant="expert", row=MOST_ROW)
    return play_script(start(state, "most-of-family", sinner=1), SIN_TIE_SCRIPT)


def test_a_sinner_settles_its_own_ties_and_succeeds_by_choosing_itself() -> None:
    state = _sin_tie_state()
    assert len(state.tricks) == 8
    assert state.ended_early
    assert game.view(state, 1)["pending_tie"] == {"family": "borgia", "chooser": 1, "seats": [1, 2]}
    assert game.legal_actions(state, 1) == [tie("borgia", 1), tie("borgia", 2)]
    _, hand = settled(game.apply(state, 1, tie("borgia", 1)))
    assert hand["sin_succeeded"] is True
    assert payments(hand) == [(2, 1, 6, "most-of-family: sin succeeded")] + [
        (seat, 1, 6, "most-of-family: sin succeeded") for seat in (3, 0)
    ]


def test_a_sinner_giving_a_tie_away_fails() -> None:
    _, hand = settled(game.apply(_sin_tie_state(), 1, tie("borgia", 2)))
    assert hand["sin_succeeded"] is False
    assert payments(hand) == [(1, 0, 8, "most-of-family: sin failed")]


def test_no_tie_is_asked_when_the_sin_failed_anyway() -> None:
    # Deal R, seat 1 sins on "most" with low cards: it fails after four tricks, no tie asked.
    state = play_out(
        start(scenario(DEAL_R, variant="expert", row=MOST_ROW), "most-of-family", sinner=1), lowest
    )
    assert state.phase is game.Phase.SETTLING
    assert state.pending_tie is None


# --- Early end --------------------------------------------------------------------------


def test_cards_left_in_hand_after_an_early_end_are_taken_by_nobody() -> None:
    state = play_out(
        start(scenario(DEAL_R, row=("sixes", "any-borgia", "first-last")), "sixes"), highest
    )
    assert len(state.tricks) == 4
    assert state.ended_early
    view = game.view(state, 1)
    assert view["phase"] == "settling"
    assert view["ended_early"] is True
    assert view["hand_counts"] == {"0": 5, "1": 5, "2": 5, "3": 5}
    assert len(view["my_hand"]) == 5
    after, hand = settled(state)
    assert hand["ended_early"] is True
    assert len(hand["tricks"]) == 4
    assert after.hand_number == state.hand_number + 1


def test_a_papal_bull_sin_on_the_last_card_fails_when_the_hand_ends_before_it() -> None:
    # first-last fails at once (seat 0 takes trick 1): the hand ends with Borgias unplayed,
    # so nobody took "the last Borgia" and the whole papal-bull sin fails.
    row = ("last-borgia", "first-last", "sixes")
    state = play_out(start(scenario(DEAL_R, variant="expert", row=row), None, sinner=1), lowest)
    assert len(state.tricks) == 1
    after, hand = settled(state)
    assert payments(hand) == [(1, 0, 18, "papal bull: sin failed")]
    assert after.florins == (48, 12, 30, 30)


def _progress(taken: list[str], remaining: str, tricks_left: int = 5) -> Progress:
    return Progress(
        taken=tuple(mask_from_ids(t.split()) for t in taken),
        remaining=mask_from_ids(remaining.split()),
        trick_counts=(1, 1, 1, 1),
        tricks_left=tricks_left,
        first_winner=0,
        last_winner=None,
        first_to_three=None,
        last_takers=(None, None, None, None),
    )


def test_a_pair_is_decided_once_it_can_no_longer_end_with_one_non_ruler() -> None:
    pairs = CATALOG[EDICT_INDEX["pairs-borgia-medici"]]
    # M5 is unplayed; its partner B5 was taken by the Ruler (seat 0): no pair can form.
    assert edict_decided(pairs, pairs.cards, 0, _progress(["B5", "", "", ""], "M5 S1 S2 S3"))
    # ... but had seat 2 taken B5, seat 2 could still take M5.
    assert not edict_decided(pairs, pairs.cards, 0, _progress(["", "", "B5", ""], "M5 S1 S2 S3"))
    # Both unplayed: open.
    assert not edict_decided(pairs, pairs.cards, 0, _progress(["", "", "", ""], "M5 B5 S3 S4"))


def test_most_of_a_family_is_decided_once_the_leader_is_out_of_reach() -> None:
    most = CATALOG[EDICT_INDEX["most-of-family"]]
    full = {f: " ".join(f"{f}{r}" for r in range(1, 10)) for f in "BMOS"}
    done = f"{full['M']} {full['O']} {full['S']}"
    # Seat 1 has 5 Borgias, seat 2 has 2, two unplayed: 5 > 2 + 2.
    assert edict_decided(most, 0, 0, _progress([done, "B1 B2 B3 B4 B5", "B6 B7", ""], "B8 B9"))
    # With 4 against 2 and three unplayed, seat 2 could still catch up.
    assert not edict_decided(most, 0, 0, _progress([done, "B1 B2 B3 B4", "B6 B7", ""], "B5 B8 B9"))
    # A sinner behind by more than what is left has failed.
    assert sin_status(most, 0, 1, _progress(["B1 B2 B3 B4 B5", "B6", "", ""], "B7 B8 B9")) == FAIL


# --- The papal bull ---------------------------------------------------------------------


def test_a_papal_bull_puts_every_edict_of_the_row_in_force() -> None:
    row = ("any-borgia", "first-last", "sixes")
    state = scenario(DEAL_R, variant="expert", row=row)
    assert {"type": "papal_bull"} in game.legal_actions(state, 0)
    state = start(state, None)
    view = game.view(state, 2)
    assert [e["id"] for e in view["edicts_in_play"]] == list(row)
    assert view["edict_row"] == []
    assert view["papal_bull"] is True
    assert view["seats"][0]["papal_bull_available"] is False
    state = play_out(state, highest)
    assert len(state.tricks) == 9  # "first or last trick" is only decided by the last trick
    after, hand = settled(state)
    assert hand["papal_bull"] is True
    assert payments(hand) == [
        (3, 0, 9, "any-borgia: 9 Borgias"),
        (3, 0, 4, "first-last: took the last trick"),
        (3, 0, 8, "sixes: 4 6s"),
    ]
    # All three edicts leave the game: the next row is three new edicts from the deck.
    next_row = [e["id"] for e in game.view(after, None)["edict_row"]]
    assert len(next_row) == 3
    assert not set(next_row) & set(row)


def test_a_papal_bull_sin_success_wins_the_game_at_once() -> None:
    row = ("any-borgia", "twos-threes", "first-to-three")
    state = play_out(start(scenario(DEAL_F, variant="expert", row=row), None, sinner=1), lowest)
    assert len(state.tricks) == 9
    after, hand = settled(state)
    assert game.is_over(after)
    assert game.result(after) == {
        "winner_seat": 1,
        "florins": {"0": 30, "1": 30, "2": 30, "3": 30},
        "reason": "papal_bull_sin",
    }
    assert hand["payments"] == []
    assert hand["sin_succeeded"] is True
    assert game.view(after, 0)["last_settlement"]["papal_bull_win"] is True


def test_a_papal_bull_sin_failure_costs_eighteen() -> None:
    row = ("any-medici", "sixes", "first-last")
    state = play_out(start(scenario(DEAL_R, variant="expert", row=row), None, sinner=1), lowest)
    assert len(state.tricks) == 2
    after, hand = settled(state)
    assert payments(hand) == [(1, 0, 18, "papal bull: sin failed")]
    assert after.florins == (48, 12, 30, 30)


def test_the_papal_bull_is_once_per_game_and_expert_only() -> None:
    used = scenario(DEAL_R, variant="expert", papal_bulls=(False, True, True, True))
    assert {"type": "papal_bull"} not in game.legal_actions(used, 0)
    with pytest.raises(game.IllegalAction) as err:
        game.apply(used, 0, {"type": "papal_bull"})
    assert (err.value.code, err.value.message) == (
        "papal_bull_unavailable",
        "You have already used your papal bull.",
    )
    basic = scenario(DEAL_R)
    with pytest.raises(game.IllegalAction) as err:
        game.apply(basic, 0, {"type": "papal_bull"})
    assert err.value.message == "There are no papal bulls in the basic game."
    playing = start(scenario(DEAL_R, variant="expert"), "sixes")
    with pytest.raises(game.IllegalAction) as err:
        game.apply(playing, 0, {"type": "papal_bull"})
    assert err.value.code == "wrong_phase"


# --- Bankruptcy and the winner ----------------------------------------------------------


def test_a_debtor_pays_what_it_has_and_the_game_ends() -> None:
    state = scenario(DEAL_R, row=("any-borgia", "sixes", "first-last"), florins=(30, 3, 30, 30))
    state = play_out(start(state, "any-borgia", sinner=1), lowest)
    after, hand = settled(state)
    assert hand["payments"] == [
        {"payer": 1, "payee": 0, "owed": 8, "paid": 3, "reason": "any-borgia: sin failed"}
    ]
    assert after.florins == (38, 0, 30, 30)
    assert game.is_over(after)
    assert game.result(after) == {
        "winner_seat": 0,
        "florins": {"0": 38, "1": 0, "2": 30, "3": 30},
        "reason": "bankruptcy",
    }
    assert game.view(after, None)["phase"] == "finished"
    with pytest.raises(game.IllegalAction) as err:
        game.apply(after, 0, {"type": "pass"})
    assert err.value.code == "game_over"
    with pytest.raises(game.IllegalAction) as err:
        game.advance(after)
    assert err.value.code == "no_automatic_step"


def test_every_payer_is_credited_in_full_to_the_sinner_even_when_one_cannot_pay() -> None:
    state = scenario(DEAL_F, row=("twos-threes", "sixes", "first-last"), florins=(30, 30, 2, 30))
    after, hand = settled(play_out(start(state, "twos-threes", sinner=1), lowest))
    assert [(p["payer"], p["owed"], p["paid"]) for p in hand["payments"]] == [
        (2, 6, 2),
        (3, 6, 6),
        (0, 6, 6),
    ]
    assert after.florins == (24, 48, 0, 24)
    assert game.result(after)["reason"] == "bankruptcy"  # type: ignore[index]


@pytest.mark.parametrize(
    ("florins", "winner"),
    [
        ((40, 40, 20, 20), 1),  # seats 0 and 1 tie; seat 1 ruled hand 10, seat 0 hand 9
        ((40, 20, 20, 40), 3),  # seat 3 rules this last hand
        ((20, 20, 40, 40), 3),
        ((20, 41, 40, 40), 1),
    ],
)
def test_most_florins_wins_and_a_tie_goes_to_the_most_recent_ruler(
    florins: tuple[int, ...], winner: int
) -> None:
    state = scenario(
        DEAL_F, ruler=3, hand_number=12, florins=florins, row=("sixes", "any-borgia", "first-last")
    )
    after, hand = settled(play_out(start(state, "sixes"), lowest))
    assert hand["payments"] == []  # the Ruler took every card
    assert game.result(after) == {
        "winner_seat": winner,
        "florins": {str(s): f for s, f in enumerate(florins)},
        "reason": "rounds_complete",
    }


# --- The edict row ----------------------------------------------------------------------


def _simulate_rows(record: dict[str, Any]) -> list[list[str]]:
    """The rows the rules say each hand shows: refill to three from the front of the deck."""
    deck = record["edict_deck"]
    row: list[str] = []
    drawn = 0
    rows = []
    for hand in record["hands"]:
        while len(row) < 3 and drawn < len(deck):
            row.append(deck[drawn])
            drawn += 1
        rows.append(list(row))
        row = [e for e in row if e not in hand["edicts_in_force"]]
    return rows


def test_the_row_is_refilled_from_the_deck_and_shrinks_when_it_runs_out() -> None:
    rng = random.Random(7)
    for i in range(50):
        end, _ = random_game(f"rows-{i}", 4, "basic", rng)
        if game.result(end)["reason"] == "rounds_complete":  # type: ignore[index]
            break
    record = game.full_record(end)
    rows = [hand["edict_row"] for hand in record["hands"]]
    assert [len(r) for r in rows] == [3] * 10 + [2, 1]
    assert rows == _simulate_rows(record)
    assert record["edict_deck"][:3] == rows[0]


def test_expert_rows_follow_the_deck_through_papal_bulls() -> None:
    rng = random.Random(8)
    bulls = 0
    for i in range(12):
        end, _ = random_game(f"expert-rows-{i}", rng.choice([3, 4]), "expert", rng)
        record = game.full_record(end)
        assert [h["edict_row"] for h in record["hands"]] == _simulate_rows(record)
        used: set[str] = set()
        for hand in record["hands"]:
            assert not used & set(hand["edict_row"])  # an edict in force never comes back
            assert len(hand["edict_row"]) >= 1
            used |= set(hand["edicts_in_force"])
            bulls += hand["papal_bull"]
    assert bulls > 0
