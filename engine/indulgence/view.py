"""What one seat (or a spectator) may know: the only way state leaves the engine.

Never included: another seat's cards in hand, the deck order, future deals, the seed.
Cards of the current trick played face down ("Don't take any tricks") by other seats
are ``null`` until the trick is complete; completed tricks are public.
"""

from __future__ import annotations

from engine.cards import CARD_IDS, FAMILIES, ids_of
from engine.core import JsonDict
from engine.indulgence.edicts import CATALOG
from engine.indulgence.rules import current_row, legal_actions, result
from engine.indulgence.shuffle import seed_commitment
from engine.indulgence.state import HandRecord, Phase, Play, State, Trick


def plays_json(
    plays: tuple[Play, ...], hide_from: int | None = None, hidden: bool = False
) -> list[JsonDict]:
    """Plays as JSON; with ``hidden``, cards of seats other than ``hide_from`` are null."""
    return [
        {
            "seat": seat,
            "card": None if hidden and seat != hide_from else CARD_IDS[card],
            "indulgence": ring,
        }
        for seat, card, ring in plays
    ]


def trick_json(trick: Trick) -> JsonDict:
    return {"leader": trick.leader, "plays": plays_json(trick.plays), "winner": trick.winner}


def seat_map(values: tuple[int, ...]) -> dict[str, int]:
    return {str(seat): value for seat, value in enumerate(values)}


def settlement_json(record: HandRecord) -> JsonDict:
    """A settled hand's public summary (the view's ``last_settlement``)."""
    s = record.settlement
    return {
        "hand": record.number,
        "ruler": record.ruler,
        "edicts_in_force": [CATALOG[e].id for e in record.in_force],
        "papal_bull": record.papal_bull,
        "trump": None if record.trump is None else FAMILIES[record.trump],
        "sinner": record.sinner,
        "sin_succeeded": s.sin_succeeded,
        "papal_bull_win": s.papal_bull_win,
        "bankruptcy": s.bankruptcy,
        "ended_early": record.ended_early,
        "tie_choices": tie_choices_json(record.tie_choices),
        "payments": [p._asdict() for p in s.payments],
        "florins_after": seat_map(s.florins_after),
    }


def hand_summary(record: HandRecord) -> JsonDict:
    """A settled hand as everyone at the table saw it: ``settlement_json`` plus who
    sinned or passed (in order) and every trick taken (taken tricks are public, face-down
    ones too once complete: rules "Play"). Never the deal: cards nobody played stay
    unknown. Not part of the view (whose card checks read every card in it as the
    current hand's): the server shows it on its history and end-of-hand pages."""
    return {
        **settlement_json(record),
        "sin_decisions": sin_decisions_json(record.sin_decisions),
        "tricks": [trick_json(t) for t in record.tricks],
    }


def hand_summaries(state: State) -> list[JsonDict]:
    """``hand_summary`` of every settled hand ``state`` holds, in order (a state restored
    from a play snapshot holds only the last: restore the whole state for all)."""
    return [hand_summary(record) for record in state.history]


def tie_choices_json(choices: tuple[tuple[int, int, int], ...]) -> list[JsonDict]:
    return [
        {"family": FAMILIES[f], "chooser": chooser, "seat": seat} for f, chooser, seat in choices
    ]


def sin_decisions_json(decisions: tuple[tuple[int, bool], ...]) -> list[JsonDict]:
    return [{"seat": seat, "decision": "sin" if sinned else "pass"} for seat, sinned in decisions]


def face_down(state: State) -> bool:
    """Whether cards are played face down this hand ("Don't take any tricks" in force)."""
    return any(CATALOG[e].kind == "no_tricks" for e in state.in_force)


def view(state: State, seat: int | None) -> JsonDict:
    """The view of ``seat`` (None: a spectator); see docs/engine.md "The view"."""
    if seat is not None and (type(seat) is not int or not 0 <= seat < state.player_count):
        raise ValueError(f"there is no seat {seat!r} at this table")
    n = state.player_count
    plays = state.plays
    pending = state.pending_tie
    return {
        "variant": state.variant,
        "player_count": n,
        "my_seat": seat,
        "seats": [
            {"seat": s, "florins": state.florins[s], "papal_bull_available": state.papal_bulls[s]}
            for s in range(n)
        ],
        "round": state.round,
        "hand_number": state.hand_number,
        "total_hands": state.total_hands,
        "ruler_seat": state.ruler,
        "first_ruler": state.first_ruler,
        "phase": state.phase.value,
        "to_act": state.to_act,
        "edict_row": [CATALOG[e].as_dict() for e in current_row(state)],
        "edicts_in_play": [CATALOG[e].as_dict() for e in state.in_force],
        "papal_bull": state.papal_bull,
        "edict_deck_remaining": len(state.edict_deck) - state.deck_drawn,
        "sin_decisions": sin_decisions_json(state.sin_decisions),
        "sinner_seat": state.sinner,
        "trump": None if state.trump is None else FAMILIES[state.trump],
        "indulgence_used": state.ring_used,
        "face_down": face_down(state),
        "my_hand": [] if seat is None else ids_of(state.hands[seat]),
        "hand_counts": seat_map(tuple(h.bit_count() for h in state.hands)),
        "current_trick": {
            "leader": state.leader,
            "led_family": FAMILIES[plays[0][1] // 9] if plays else None,
            "plays": plays_json(plays, seat, face_down(state)),
        },
        "tricks": [trick_json(t) for t in state.tricks],
        "trick_counts": seat_map(state.trick_counts),
        "ended_early": state.ended_early,
        "pending_tie": None
        if pending is None
        else {"family": FAMILIES[pending[0]], "chooser": pending[1], "seats": list(pending[2])},
        "tie_choices": tie_choices_json(state.tie_choices),
        "legal_actions": [] if seat is None else legal_actions(state, seat),
        "last_settlement": settlement_json(state.history[-1]) if state.history else None,
        "seed_commitment": seed_commitment(state.seed),
        "result": result(state),
        "is_over": state.phase is Phase.FINISHED,
    }
