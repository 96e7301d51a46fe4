"""The full record (api.md "The full record") and the JSON snapshot of a state."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import FAMILIES, FAMILY_INDEX, ids_of, mask_from_ids
from engine.core import JsonDict
from engine.indulgence.edicts import CATALOG, EDICT_INDEX
from engine.indulgence.rules import result
from engine.indulgence.shuffle import seed_commitment
from engine.indulgence.state import (
    ActionItems,
    HandRecord,
    Move,
    Payment,
    Phase,
    Result,
    Settlement,
    State,
    Trick,
)
from engine.indulgence.view import (
    plays_json,
    seat_map,
    sin_decisions_json,
    tie_choices_json,
    trick_json,
)

SNAPSHOT_FORMAT = 1


def _deal_json(deal: tuple[int, ...]) -> dict[str, list[str]]:
    return {str(seat): ids_of(mask) for seat, mask in enumerate(deal)}


def _family(f: int | None) -> str | None:
    return None if f is None else FAMILIES[f]


def _hand_json(record: HandRecord, player_count: int) -> JsonDict:
    s = record.settlement
    return {
        "number": record.number,
        "round": (record.number - 1) // player_count + 1,
        "ruler": record.ruler,
        "deal": _deal_json(record.deal),
        "edict_row": [CATALOG[e].id for e in record.row],
        "edicts_in_force": [CATALOG[e].id for e in record.in_force],
        "papal_bull": record.papal_bull,
        "trump": _family(record.trump),
        "sin_decisions": sin_decisions_json(record.sin_decisions),
        "sinner": record.sinner,
        "tricks": [trick_json(t) for t in record.tricks],
        "current_trick": None,
        "ended_early": record.ended_early,
        "tie_choices": tie_choices_json(record.tie_choices),
        "sin_succeeded": s.sin_succeeded,
        "payments": [p._asdict() for p in s.payments],
        "florins_after": seat_map(s.florins_after),
    }


def _current_hand_json(state: State) -> JsonDict:
    return {
        "number": state.hand_number,
        "round": state.round,
        "ruler": state.ruler,
        "deal": _deal_json(state.deal),
        "edict_row": [CATALOG[e].id for e in state.row],
        "edicts_in_force": [CATALOG[e].id for e in state.in_force],
        "papal_bull": state.papal_bull,
        "trump": _family(state.trump),
        "sin_decisions": sin_decisions_json(state.sin_decisions),
        "sinner": state.sinner,
        "tricks": [trick_json(t) for t in state.tricks],
        "current_trick": {"leader": state.leader, "plays": plays_json(state.plays)}
        if state.plays
        else None,
        "ended_early": state.ended_early,
        "tie_choices": tie_choices_json(state.tie_choices),
        "sin_succeeded": None,
        "payments": [],
        "florins_after": None,
    }


def _require_whole(state: State) -> None:
    if state.history_start:
        raise ValueError(
            f"this state holds the settled hands from number {state.history_start + 1} on "
            "only (a play snapshot): restore it with state_from_json(snapshot, earlier=...)"
        )


def all_moves(state: State) -> list[Move]:
    """Every accepted player action of the game so far, in order."""
    _require_whole(state)
    moves: list[Move] = []
    for record in state.history:
        moves.extend(record.moves)
    moves.extend(state.hand_moves)
    return moves


def full_record(state: State) -> JsonDict:
    """Everything about the game, seed included (the server decides when to release it).

    Valid at any time: the hand in progress is included with ``payments`` [] and
    ``florins_after`` null. ``moves`` are numbered from 1 (``seq``). ``ValueError`` for a
    state that does not hold every settled hand (one restored from a ``play_snapshot``).
    """
    _require_whole(state)
    hands = [_hand_json(r, state.player_count) for r in state.history]
    if state.phase is not Phase.FINISHED:
        hands.append(_current_hand_json(state))
    return {
        "variant": state.variant,
        "player_count": state.player_count,
        "seed": state.seed,
        "seed_commitment": seed_commitment(state.seed),
        "first_ruler": state.first_ruler,
        "edict_deck": [CATALOG[e].id for e in state.edict_deck],
        "hands": hands,
        "result": result(state),
        "moves": [
            {"seq": seq, "seat": seat, "action": dict(items)}
            for seq, (seat, items) in enumerate(all_moves(state), start=1)
        ],
    }


def settled_hand(state: State, number: int) -> JsonDict:
    """Settled hand ``number`` as ``full_record`` gives it; ``state`` must hold its record
    (the last settled hand is held by every state)."""
    for record in state.history:
        if record.number == number:
            return _hand_json(record, state.player_count)
    raise ValueError(f"hand {number} is not among the settled hands this state holds")


# --- JSON snapshot ----------------------------------------------------------------------


def _cards(mask: int) -> list[str]:
    return ids_of(mask)


def _masks(value: Any) -> tuple[int, ...]:
    return tuple(mask_from_ids(cards) for cards in value)


def _opt_family(value: Any) -> int | None:
    return None if value is None else FAMILY_INDEX[value]


def _edicts(value: Any) -> tuple[int, ...]:
    return tuple(EDICT_INDEX[e] for e in value)


def _moves_to_json(moves: tuple[Move, ...]) -> list[Any]:
    return [[seat, [[k, v] for k, v in items]] for seat, items in moves]


def _moves_from_json(value: Any) -> tuple[Move, ...]:
    moves = []
    for seat, items in value:
        canonical: ActionItems = tuple((str(k), v) for k, v in items)
        moves.append((int(seat), canonical))
    return tuple(moves)


def _trick_to_json(trick: Trick) -> list[Any]:
    return [trick.leader, [[seat, card, ring] for seat, card, ring in trick.plays], trick.winner]


def _trick_from_json(value: Any) -> Trick:
    leader, plays, winner = value
    return Trick(leader, tuple((s, c, r) for s, c, r in plays), winner)


def _record_to_json(r: HandRecord) -> JsonDict:
    s = r.settlement
    return {
        "number": r.number,
        "ruler": r.ruler,
        "deal": [_cards(m) for m in r.deal],
        "row": [CATALOG[e].id for e in r.row],
        "in_force": [CATALOG[e].id for e in r.in_force],
        "papal_bull": r.papal_bull,
        "trump": _family(r.trump),
        "sin_decisions": [[seat, sinned] for seat, sinned in r.sin_decisions],
        "sinner": r.sinner,
        "tricks": [_trick_to_json(t) for t in r.tricks],
        "ended_early": r.ended_early,
        "tie_choices": [list(c) for c in r.tie_choices],
        "settlement": {
            "payments": [list(p) for p in s.payments],
            "florins_after": list(s.florins_after),
            "sin_succeeded": s.sin_succeeded,
            "papal_bull_win": s.papal_bull_win,
            "bankruptcy": s.bankruptcy,
        },
        "moves": _moves_to_json(r.moves),
    }


def _record_from_json(d: JsonDict) -> HandRecord:
    s = d["settlement"]
    return HandRecord(
        number=d["number"],
        ruler=d["ruler"],
        deal=_masks(d["deal"]),
        row=_edicts(d["row"]),
        in_force=_edicts(d["in_force"]),
        papal_bull=d["papal_bull"],
        trump=_opt_family(d["trump"]),
        sin_decisions=tuple((seat, sinned) for seat, sinned in d["sin_decisions"]),
        sinner=d["sinner"],
        tricks=tuple(_trick_from_json(t) for t in d["tricks"]),
        ended_early=d["ended_early"],
        tie_choices=tuple((f, c, seat) for f, c, seat in d["tie_choices"]),
        settlement=Settlement(
            payments=tuple(Payment(*p) for p in s["payments"]),
            florins_after=tuple(s["florins_after"]),
            sin_succeeded=s["sin_succeeded"],
            papal_bull_win=s["papal_bull_win"],
            bankruptcy=s["bankruptcy"],
        ),
        moves=_moves_from_json(d["moves"]),
    )


def state_to_json(state: State) -> JsonDict:
    """A JSON-safe snapshot of the whole state (``state_from_json`` restores it exactly)."""
    res = state.result
    tie = state.pending_tie
    return {
        "format": SNAPSHOT_FORMAT,
        "player_count": state.player_count,
        "variant": state.variant,
        "seed": state.seed,
        "edict_deck": [CATALOG[e].id for e in state.edict_deck],
        "deck_drawn": state.deck_drawn,
        "first_ruler": state.first_ruler,
        "florins": list(state.florins),
        "papal_bulls": list(state.papal_bulls),
        "history": [_record_to_json(r) for r in state.history],
        "result": None if res is None else [res.winner, list(res.florins), res.reason],
        "hand_number": state.hand_number,
        "ruler": state.ruler,
        "row": [CATALOG[e].id for e in state.row],
        "deal": [_cards(m) for m in state.deal],
        "hands": [_cards(m) for m in state.hands],
        "phase": state.phase.value,
        "to_act": state.to_act,
        "in_force": [CATALOG[e].id for e in state.in_force],
        "papal_bull": state.papal_bull,
        "trump": _family(state.trump),
        "sin_decisions": [[seat, sinned] for seat, sinned in state.sin_decisions],
        "sinner": state.sinner,
        "ring_used": state.ring_used,
        "leader": state.leader,
        "plays": [[seat, card, ring] for seat, card, ring in state.plays],
        "tricks": [_trick_to_json(t) for t in state.tricks],
        "taken": [_cards(m) for m in state.taken],
        "trick_counts": list(state.trick_counts),
        "first_to_three": state.first_to_three,
        "last_takers": list(state.last_takers),
        "ended_early": state.ended_early,
        "tie_choices": [list(c) for c in state.tie_choices],
        "pending_tie": None if tie is None else [tie[0], tie[1], list(tie[2])],
        "hand_moves": _moves_to_json(state.hand_moves),
        "history_start": state.history_start,
    }


def settled_count(state: State) -> int:
    """How many hands have been settled (whether or not ``state`` holds their records)."""
    return state.history_start + len(state.history)


def play_snapshot(state: State) -> JsonDict:
    """``state_to_json`` of the state without the settled hands' records but the last:
    what ``apply``, ``advance`` and ``view`` need, a small fraction of a whole snapshot
    once a few hands are settled (their tricks and moves are most of it). ``full_record``
    needs the others back: ``state_from_json(snapshot, earlier=hand_records_json(...))``.
    """
    kept = state.history[-1:]
    return state_to_json(
        state._replace(history=kept, history_start=settled_count(state) - len(kept))
    )


def hand_records_json(state: State) -> list[JsonDict]:
    """The records of the settled hands ``state`` holds, in order (JSON): of every settled
    hand for a whole state, what ``state_from_json`` takes as ``earlier`` for a play
    snapshot; of hands ``history_start + 1`` on for a state restored from one."""
    return [_record_to_json(r) for r in state.history]


def snapshot_history_start(d: JsonDict) -> int:
    """How many settled hands' records a ``state_to_json`` snapshot leaves out."""
    return int(d.get("history_start", 0))


def state_from_json(d: JsonDict, earlier: Sequence[JsonDict] | None = None) -> State:
    """The state a ``state_to_json`` snapshot describes. For a snapshot that leaves the
    first settled hands out (``play_snapshot``), ``earlier``: the records of at least
    those hands, in order (``hand_records_json``; extra ones are ignored), restores the
    whole state; without it the state holds the snapshot's hands only."""
    if d.get("format") != SNAPSHOT_FORMAT:
        raise ValueError(f"unsupported snapshot format {d.get('format')!r}")
    res = d["result"]
    tie = d["pending_tie"]
    start = snapshot_history_start(d)
    history = tuple(_record_from_json(r) for r in d["history"])
    if start and earlier is not None:
        if len(earlier) < start:
            raise ValueError(
                f"the snapshot leaves out {start} settled hands; {len(earlier)} records given"
            )
        history = tuple(_record_from_json(r) for r in earlier[:start]) + history
        start = 0
    return State(
        player_count=d["player_count"],
        variant=d["variant"],
        seed=d["seed"],
        edict_deck=_edicts(d["edict_deck"]),
        deck_drawn=d["deck_drawn"],
        first_ruler=d["first_ruler"],
        florins=tuple(d["florins"]),
        papal_bulls=tuple(d["papal_bulls"]),
        history=history,
        result=None if res is None else Result(res[0], tuple(res[1]), res[2]),
        hand_number=d["hand_number"],
        ruler=d["ruler"],
        row=_edicts(d["row"]),
        deal=_masks(d["deal"]),
        hands=_masks(d["hands"]),
        phase=Phase(d["phase"]),
        to_act=d["to_act"],
        in_force=_edicts(d["in_force"]),
        papal_bull=d["papal_bull"],
        trump=_opt_family(d["trump"]),
        sin_decisions=tuple((seat, sinned) for seat, sinned in d["sin_decisions"]),
        sinner=d["sinner"],
        ring_used=d["ring_used"],
        leader=d["leader"],
        plays=tuple((s, c, r) for s, c, r in d["plays"]),
        tricks=tuple(_trick_from_json(t) for t in d["tricks"]),
        taken=_masks(d["taken"]),
        trick_counts=tuple(d["trick_counts"]),
        first_to_three=d["first_to_three"],
        last_takers=tuple(d["last_takers"]),
        ended_early=d["ended_early"],
        tie_choices=tuple((f, c, seat) for f, c, seat in d["tie_choices"]),
        pending_tie=None if tie is None else (tie[0], tie[1], tuple(tie[2])),
        hand_moves=_moves_from_json(d["hand_moves"]),
        history_start=start,
    )
