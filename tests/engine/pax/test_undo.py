"""15.5.2's undo window (``engine.pax.undo``; docs/pax.md P-79): "Allow undo only back to
the last point where hidden information was revealed. A draw, a Scout, an Expel of a
face-down card, an Oust reveal and an event draw each close the undo window."

Measured over seeded random games of 2, 3 and 4 seats, standard and against the automa:
each of the five revealing actions is met and closes the window; a plain action (an
Influence, a payment) stays undoable; and no action the engine calls undoable changed
anything hidden (an independent check on the states themselves, not on the log)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from engine.core import JsonDict
from engine.pax import engine as E
from engine.pax.state import State
from engine.pax.undo import entry_reveals, undoable

GAMES = 36


def _applies() -> Iterator[tuple[State, int, JsonDict, State]]:
    """(state before, seat, action, state after) of every ``apply`` of the sample games."""
    for g in range(GAMES):
        players = 2 + g % 3
        variant = "standard" if g % 2 else "automa-SG"
        state = E.new_game(players, variant, f"undo-{g}", {"round_cap": 4})
        rng = random.Random(g)
        for _ in range(8000):
            if E.is_over(state):
                break
            seat = E.to_act(state)
            if seat is None:
                state = E.advance(state)
                continue
            action = rng.choice(E.legal_actions(state, seat))
            after = E.apply(state, seat, action)
            yield state, seat, action, after
            state = after


SAMPLE = list(_applies())


def _kind(before: State, seat: int, after: State) -> set[str]:
    """Which of 15.5.2's revealing actions this apply was, read from its H.6 steps."""
    entry = after.log[-1]
    steps = entry["steps"]
    kinds: set[str] = set()
    for i, st in enumerate(steps):
        if st["step"] == "seen" and after.pending and after.pending[-1][1] == "place":
            kinds.add("scout")  # the scouted card shown to its scouter (7.1.2)
        if st["step"] == "move" and st["from"] == ["deck"] and st["to"] == ["hand", seat]:
            kinds.add("draw")
        if st["step"] == "flip" and any(
            later["step"] == "move" and later["to"] == ["discard"] for later in steps[i + 1 :]
        ):
            kinds.add("expel_face_down")  # the face-down card turned up, then discarded
        if st["step"] == "oust":
            kinds.add("oust_reveal")
        if st["step"] == "move" and st["from"] == ["event_deck"]:
            kinds.add("event_draw")
    return kinds


def test_each_revealing_action_of_15_5_2_closes_the_undo_window() -> None:
    met: Counter[str] = Counter()
    for before, seat, _action, after in SAMPLE:
        for kind in _kind(before, seat, after):
            met[kind] += 1
            assert not undoable(after, seat), (kind, after.log[-1])
    assert set(met) == {"scout", "draw", "expel_face_down", "oust_reveal", "event_draw"}, met


def test_the_event_phase_s_draw_closes_the_window_for_the_first_decision_after_it() -> None:
    """The event draw of the turn's start is an automatic step (5.3; an ``advance``
    entry, seat null): the active player's first decision can take nothing back."""
    checked = 0
    for before, seat, _action, _after in SAMPLE:
        entry = before.log[-1] if before.log else None
        if entry is not None and entry["seat"] is None and seat == before.active:
            assert not undoable(before, seat)
            checked += 1
    assert checked > 50


def test_a_plain_action_such_as_an_influence_can_be_taken_back() -> None:
    undone: Counter[str] = Counter()
    for _before, seat, action, after in SAMPLE:
        entry = after.log[-1]
        plain = not entry_reveals(entry)
        own_turn = seat == after.active and E.to_act(after) == seat
        # The window is open exactly when the action showed nothing and its seat, the
        # active player, still decides.
        assert undoable(after, seat) == (plain and own_turn), (action, entry)
        if undoable(after, seat):
            undone[action["type"]] += 1
    assert undone["influence"] > 0, undone
    assert undone["pay"] > 0, undone


def _hidden(state: State, seat: int) -> tuple[Any, ...]:
    """What ``seat`` does not see (15.4): the decks, the face-down map cards, the other
    seats' hands, event hands and private plots, sealed Oust cards."""
    others = [q for q in range(len(state.hands)) if q != seat]
    return (
        state.deck,
        state.event_deck,
        state.plot_deck,
        tuple(c for c, up in zip(state.cards, state.up, strict=True) if not up),
        tuple(state.hands[q] for q in others),
        tuple(state.events[q] for q in others),
        tuple(state.plot[q] for q in others if not state.plot_revealed[q]),
        state.oust_played,
    )


def test_no_undoable_action_changed_anything_hidden() -> None:
    """Checked on the states, not on the log the rule reads: nothing the acting seat did
    not see before has moved (a card drawn, turned up, revealed in an Oust)."""
    count = 0
    for before, seat, _action, after in SAMPLE:
        assert len(after.log) == len(before.log) + 1  # H.6: one entry per apply
        if undoable(after, seat):
            count += 1
            assert _hidden(before, seat) == _hidden(after, seat), after.log[-1]
    assert count > 100


def test_another_seat_s_decision_is_never_undoable() -> None:
    """The defender's Oust card and favor choice (15.1.2) are answers inside another
    seat's turn: never taken back, by the defender or by the active player."""
    defender = 0
    for _before, seat, _action, after in SAMPLE:
        if seat != after.active:
            defender += 1
            assert not undoable(after, seat)
            assert not undoable(after, after.active)
    assert defender > 0
