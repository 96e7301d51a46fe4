"""What each seat sees (NE-28): the only way the state leaves the engine toward a player.

Public to every seat and spectators (NE-28.1): the layout with provenance, side lines,
exhibits, the pending play (without its sealed prophet intent), PC, markers, prophet
lines, calls and approvals, sudden death, hand sizes, expulsions, the stock size and decks,
hints, settings, the rule commitment, and after a round everything in its record.
Private (NE-28.2): a scientist's own hand and draws; the prophet's own prophecy; the
dealer's rule, salt and sanity verdict (the dealer does not see hands, E33). Never before
a round is scored: the rule's source, the salt (except to the dealer), the round seed,
put-back starter cards, other seats' cards and the stock's order.

``view["round"]["turns"]`` is the public evidence a scientist bot reasons from (NE-30.2):
every judged turn with its cards, the main-line card it followed, its truth, the call and
approval, the card placed from a wrong no play and any expulsion or overthrow.
"""

from __future__ import annotations

import json
from typing import Any

from engine.core import JsonDict
from engine.eleusis.commitment import rule_salt
from engine.eleusis.deck import (
    card_id,
    card_ids,
    round_seed,
    round_seed_commitment,
    seed_commitment,
)
from engine.eleusis.erl import LANGUAGE
from engine.eleusis.game import legal_actions, phase, to_act, vote_window
from engine.eleusis.hints import hint_text
from engine.eleusis.record import end_json, entry_json, round_json, settings_json
from engine.eleusis.scoring import totals_so_far
from engine.eleusis.state import Call, Round, State, Turn
from engine.eleusis.table import office_line, round_scientists, sudden_death


def call_json(call: Call | None) -> JsonDict | None:
    if call is None:
        return None
    return {
        "verdict": call.verdict,
        "card": card_id(call.card) if call.card is not None else None,
        "seq": call.seq,
        "by": call.by,
    }


def turn_json(t: Turn) -> JsonDict:
    return {
        "seq": t.seq,
        "seat": t.seat,
        "kind": t.kind,
        "cards": card_ids(t.cards),
        "under": t.under,
        "truth": t.truth,
        "sudden_death": t.sudden_death,
        "call": call_json(t.call),
        "approved": t.approved,
        "overthrown": t.overthrown,
        "chosen": card_id(t.chosen) if t.chosen is not None else None,
        "chosen_by": t.chosen_by,
        "expelled": t.expelled,
        "pc": t.pc,
    }


def _entries(r: Round, seat: int | None) -> list[JsonDict]:
    """The round's log as ``seat`` may see it: the record's masking, other seats' drawn
    cards as counts, another seat's prophecy withheld, and the sealed prophet intent of
    the pending play withheld from everyone but its player (NE-26.2, NE-28.3)."""
    pending_seq = r.pending.seq if r.pending is not None else None
    out = []
    for entry in r.log:
        e = entry_json(entry, revealed=False)
        events = []
        for ev in e["events"]:
            if ev["type"] == "draw" and ev["seat"] != seat:
                ev = {**ev, "cards": None, "count": len(ev["cards"])}
            events.append(ev)
        e["events"] = events
        action = e["action"]
        if action["type"] == "set_prophecy" and entry.seat == seat:
            action["source"] = json.loads(entry.action)["source"]
            e.pop("withheld", None)
        if entry.seq == pending_seq and entry.seat != seat and "prophet" in action:
            action["prophet"] = None
            e["withheld"] = ["prophet"]
        out.append(e)
    return out


def _hints(r: Round) -> list[JsonDict]:
    if r.rule is None:
        return []
    hints = [{**h, "text": hint_text(h), "verified": True} for h in json.loads(r.rule.hints)]
    if r.rule.free_hint:
        hints.append({"id": None, "text": r.rule.free_hint, "verified": False})
    return hints


def round_view(state: State, seat: int | None) -> JsonDict:
    r = state.round
    line = office_line(r.lines, r.prophet)
    rule = r.rule
    pending = r.pending
    out: JsonDict = {
        "number": r.number,
        "dealer": r.dealer,
        "phase": r.phase,
        "rule": {
            "language": LANGUAGE,
            "commitment": rule.commitment if rule else None,
            "evaluator": rule.evaluator if rule else None,
            "no_play_choice": rule.no_play_choice if rule else None,
            "difficulty": rule.difficulty if rule else None,
            "hints": _hints(r),
        },
        "decks": r.decks,
        "decks_in_use": r.decks_in_use,
        "stock": len(r.stock),
        "starter": [{"card": card_id(c) if kept else None, "kept": kept} for c, kept in r.starter],
        "first_player": r.first_player,
        "main": [
            {"card": card_id(m.card), "seat": m.seat, "seq": m.seq, "starter": m.seat is None}
            for m in r.main
        ],
        "side": [
            {"under": p.under, "seat": p.seat, "cards": card_ids(p.cards), "seq": p.seq}
            for p in r.side
        ],
        "exhibits": [
            {"under": x.under, "seat": x.seat, "cards": card_ids(x.cards), "seq": x.seq}
            for x in r.exhibits
        ],
        "pc": r.pc,
        "main_played": r.main_played,
        "side_played": r.side_played,
        "markers": [
            {"color": m.color, "card": card_id(m.card), "count": m.count, "removed": m.removed}
            for m in r.markers
        ],
        "prophet": {"seat": line.seat, "m": line.m, "main_at": line.main_at} if line else None,
        "prophet_lines": [
            {
                "seat": p.seat,
                "m": p.m,
                "main_at": p.main_at,
                "overthrown": p.overthrown_seq is not None,
            }
            for p in r.lines
        ],
        "sudden_death": sudden_death(state.settings, r.pc, line),
        "pending": {
            "seat": pending.seat,
            "kind": pending.kind,
            "cards": card_ids(pending.cards),
            "seq": pending.seq,
            "sudden_death": pending.sudden_death,
            "call": call_json(pending.call),
        }
        if pending is not None
        else None,
        "expelled": list(r.expelled),
        "turns": [turn_json(t) for t in r.turns],
        "turn_count": r.turn_count,
        "end_reason": r.end_reason,
        "log": _entries(r, seat),
        "record": None,
    }
    if r.score is not None:  # scored: everything in its record is public (NE-28.1)
        record = round_json(r)
        out["record"] = record
        out["starter"] = record["starter"]
        out["log"] = record["log"]
    return out


def _seats(state: State) -> list[JsonDict]:
    r = state.round
    order = set(round_scientists(state))
    totals = totals_so_far(state)
    dealt = {x.dealer for x in state.rounds if x.score is not None}
    out = []
    for s in range(state.player_count):
        role = "dealer" if s == r.dealer else "prophet" if s == r.prophet else "scientist"
        out.append(
            {
                "seat": s,
                "bot": state.bots[s],
                "role": role,
                "hand_count": len(r.hands[s]) if s in order and r.deal is not None else None,
                "expelled": s in r.expelled,
                "been_prophet": any(p.seat == s for p in r.lines),
                "total": totals[s],
                "dealt": s in dealt,
            }
        )
    return out


def view(state: State, seat: int | None) -> JsonDict:
    """``seat``'s view (None: a spectator)."""
    r = state.round
    mine = seat is not None and 0 <= seat < state.player_count
    secret: dict[str, Any] | None = None
    if mine and seat == r.dealer and r.rule is not None and r.score is None:
        secret = {
            "source": r.rule.source,
            "salt": rule_salt(r.seed).hex(),
            "library_id": r.rule.library_id,
            "sanity": r.rule.sanity,
            "reasons": list(r.rule.reasons),
        }
    in_office = mine and seat == r.prophet and r.score is None
    return {
        "game": "eleusis",
        "variant": state.variant,
        "player_count": state.player_count,
        "settings": settings_json(state.settings),
        "seat": seat if mine else None,
        "phase": phase(state),
        "to_act": to_act(state),
        "seats": _seats(state),
        "round": round_view(state, seat if mine else None),
        "rounds_planned": state.planned_rounds,
        # E01: with two scientists nobody can ever declare (NE-10.1 (c)).
        "prophet_possible": len(round_scientists(state)) >= 3,
        "previous_rounds": [round_json(x) for x in state.rounds[:-1]],
        "seed_commitment": seed_commitment(state.seed),
        "round_seed_commitments": [
            round_seed_commitment(round_seed(state.seed, n))
            for n in range(1, state.planned_rounds + 1)
        ],
        "votes": list(state.votes),
        "vote_open": vote_window(state) is not None,
        "end": end_json(state),
        "my_hand": card_ids(r.hands[seat]) if mine and seat is not None else None,
        "my_prophecy": r.prophecy if in_office else None,
        "dealer_secret": secret,
        "legal_actions": legal_actions(state, seat) if mine and seat is not None else [],
    }
