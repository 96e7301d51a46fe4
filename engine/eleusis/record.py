"""The game's record, format ``eleusis-record-1`` (NE-29.3), and the state as JSON.

Until a round is scored its seed, the rule's source, salt, canonical form, library id and
sanity verdict, the cards put back while drawing starters, the source of its
``set_rule``/``set_prophecy`` actions and the id of a ``library_rule`` action are null,
and a masked entry says so in ``"withheld"`` (NE-29.3.9). The game seed is null until the
game is over. The engine adds a few keys (a verifier ignores them, NE-29.3.1): the
settings it needs to replay (``difficulty``, ``sanity_walks``, ``max_turns``), the rule's
public ``hints``, ``free_hint`` and requested ``difficulty``, and ``shown`` on the entry of
a no play (the hand shown to everyone, NE-9.1).
"""

from __future__ import annotations

import json

from engine.core import JsonDict
from engine.eleusis.codec import decode, encode
from engine.eleusis.commitment import rule_salt
from engine.eleusis.deck import (
    card_id,
    card_ids,
    round_seed,
    round_seed_commitment,
    seed_commitment,
)
from engine.eleusis.erl import LANGUAGE, compile_rule
from engine.eleusis.setup import evaluator_version
from engine.eleusis.state import LogEntry, Round, RoundScore, Settings, State

RECORD_FORMAT = "eleusis-record-1"
STATE_FORMAT = "eleusis-state-1"
MASKED_ACTION_KEYS: dict[str, str] = {
    "set_rule": "source",
    "set_prophecy": "source",
    "library_rule": "id",
}


def settings_json(settings: Settings) -> JsonDict:
    return {
        "hand_size": settings.hand_size,
        "sudden_death": settings.sudden_death,
        "sudden_death_prophet": settings.sudden_death_prophet,
        "round_limit": settings.round_limit,
        "rated": settings.rated,
        "house_dealt": settings.house_dealt,
        "late_claims": settings.late_claims,
        "going_out_prophet": settings.going_out_prophet,
        "deadlines": dict(settings.deadlines),
        "difficulty": settings.difficulty,
        "sanity_walks": settings.sanity_walks,
        "max_turns": settings.max_turns,
    }


def entry_json(entry: LogEntry, revealed: bool) -> JsonDict:
    """A log entry (NE-29.3.5), masked if its round is not scored yet (NE-29.3.9)."""
    action = json.loads(entry.action)
    out: JsonDict = {
        "seq": entry.seq,
        "seat": entry.seat,
        "phase": entry.phase,
        "by": entry.by,
        "at": None,
        "action": action,
        "events": json.loads(entry.events),
    }
    key = MASKED_ACTION_KEYS.get(action["type"])
    if not revealed and key is not None and key in action:
        action[key] = None
        out["withheld"] = [key]
    if entry.shown is not None:
        out["shown"] = card_ids(entry.shown)
    return out


def score_json(score: RoundScore) -> JsonDict:
    return {
        "reason": score.reason,
        "hands": [card_ids(h) for h in score.hands],
        "score": {
            "high": score.high,
            "held": list(score.held),
            "out_bonus": list(score.out_bonus),
            "prophet": encode(score.prophet),
            "dealer": encode(score.dealer),
            "scores": list(score.scores),
        },
    }


def rule_json(r: Round, revealed: bool) -> JsonDict:
    rule = r.rule
    out: JsonDict = {
        "language": LANGUAGE,
        "evaluator": rule.evaluator if rule else evaluator_version(),
        "commitment": rule.commitment if rule else None,
        "source": None,
        "salt": None,
        "canonical": None,
        "library_id": None,
        "sanity": None,
        "no_play_choice": rule.no_play_choice if rule else None,
        "hints": json.loads(rule.hints) if rule else [],
        "free_hint": rule.free_hint if rule else None,
        "difficulty": rule.difficulty if rule else None,
    }
    if rule is not None and revealed:
        out["source"] = rule.source
        out["salt"] = rule_salt(r.seed).hex()
        out["canonical"] = compile_rule(rule.source).canonical
        out["library_id"] = rule.library_id
        out["sanity"] = rule.sanity
    return out


def round_json(r: Round) -> JsonDict:
    """A round (NE-29.3.4)."""
    revealed = r.score is not None
    return {
        "number": r.number,
        "dealer": r.dealer,
        "seed": r.seed if revealed else None,
        "rule": rule_json(r, revealed),
        "decks": r.decks,
        "deal": [card_ids(h) for h in r.deal] if r.deal is not None else None,
        "starter": [
            {"card": card_id(c) if kept or revealed else None, "kept": kept}
            for c, kept in r.starter
        ],
        "first_player": r.first_player,
        "log": [entry_json(e, revealed) for e in r.log],
        "end": score_json(r.score) if r.score is not None else None,
    }


def end_json(state: State) -> JsonDict | None:
    end = state.end
    if end is None:
        return None
    return {
        "reason": end.reason,
        "early_end_points": list(end.early_end_points),
        "totals": list(end.totals),
        "ranking": [list(g) for g in end.ranking],
    }


def full_record(state: State) -> JsonDict:
    """The whole game as one JSON document (NE-29.3)."""
    over = state.end is not None
    return {
        "game": "eleusis",
        "format": RECORD_FORMAT,
        "variant": state.variant,
        "player_count": state.player_count,
        "settings": settings_json(state.settings),
        "seats": [{"seat": s, "bot": b} for s, b in enumerate(state.bots)],
        "seed": state.seed if over else None,
        "seed_commitment": seed_commitment(state.seed),
        "round_seed_commitments": [
            round_seed_commitment(round_seed(state.seed, n))
            for n in range(1, state.planned_rounds + 1)
        ],
        "first_dealer": state.first_dealer,
        "rounds": [round_json(r) for r in state.rounds],
        "status": "over" if over else "in_progress",
        "end": end_json(state),
    }


def state_to_json(state: State) -> JsonDict:
    """The whole state as JSON (secrets included: for storage, never for a seat)."""
    return {"format": STATE_FORMAT, "state": encode(state)}


def state_from_json(data: JsonDict) -> State:
    if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
        raise ValueError(f"not an {STATE_FORMAT} document")
    state: State = decode(State, data["state"])
    return state
