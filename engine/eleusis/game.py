"""The engine contract for New Eleusis: ``to_act``, ``legal_actions``, ``apply``,
``advance``, ``timeout``, ``is_over`` and ``result`` (architecture.md; NE-26, NE-27,
NE-31, E05, E29, E32, E35, E37).

``apply`` validates an action in this order, so no refusal ever depends on the rule
(NE-28.3): its form (``bad_action``), the game and the phase (``wrong_phase``), the seat
(``not_your_turn``, ``not_eligible``), then the cards against the hand or the shown hand.
Only the dealer's ``choose_card`` can be refused as ``card_not_right`` (E37).
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import IllegalAction, JsonDict
from engine.eleusis.actions import MAX_PLAY, normalise
from engine.eleusis.deck import card_id, choice_index, round_seed
from engine.eleusis.library import library
from engine.eleusis.scoring import game_end, score_round
from engine.eleusis.setup import set_rule, start_round
from engine.eleusis.state import (
    BY,
    DEALER_CHOICE,
    DIFFICULTIES,
    GAME_OVER,
    POST_PLAY,
    PROPHET_CALL,
    PROPHET_INTENTS,
    ROUND_OVER,
    RULE_SETUP,
    TURN,
    LogEntry,
    State,
)
from engine.eleusis.turns import (
    choose_card,
    make_call,
    post_play,
    right_cards,
    set_prophecy,
    take_turn,
)
from engine.eleusis.work import dumps

PHASE_ACTIONS: dict[str, tuple[str, ...]] = {
    RULE_SETUP: ("set_rule", "library_rule"),
    TURN: ("play", "no_play"),
    PROPHET_CALL: ("call",),
    DEALER_CHOICE: ("choose_card",),
    POST_PLAY: ("declare_prophet", "pass"),
    ROUND_OVER: (),
}
ANY_PHASE = ("set_prophecy", "propose_end", "agree_end")


def phase(state: State) -> str:
    return GAME_OVER if state.end is not None else state.round.phase


def to_act(state: State) -> int | None:
    """The one seat to act; None for an automatic step (the end of a round, a house-dealt
    rule) or when the game is over."""
    if state.end is not None:
        return None
    r = state.round
    if r.phase == RULE_SETUP:
        return r.dealer
    if r.phase in (TURN, POST_PLAY):
        return r.current
    if r.phase == PROPHET_CALL:
        return r.prophet
    if r.phase == DEALER_CHOICE:
        return r.dealer
    return None


def is_over(state: State) -> bool:
    return state.end is not None


def result(state: State) -> JsonDict | None:
    """The common shape: ranking (best first, ties share a place, E06), scores (game
    totals with early-end points, by seat as a string), winner_seats, reason."""
    end = state.end
    if end is None:
        return None
    return {
        "ranking": [list(group) for group in end.ranking],
        "scores": {str(seat): total for seat, total in enumerate(end.totals)},
        "winner_seats": list(end.ranking[0]),
        "reason": end.reason,
    }


# --- votes to end the game early (E05 (b), E35) ----------------------------------------


def vote_window(state: State) -> int | None:
    """The index of the round a vote would be logged in (the round just ended), or None
    when no vote is open: from the end of a round that is not the last planned one until
    the next dealer's first rule_setup action (E35)."""
    if state.end is not None or state.vote_passed:
        return None
    r = state.round
    if r.phase == ROUND_OVER and r.score is None and r.number < state.planned_rounds:
        return len(state.rounds) - 1
    if r.phase == RULE_SETUP and not r.log and len(state.rounds) >= 2:
        return len(state.rounds) - 2
    return None


def _vote(state: State, seat: int, action: JsonDict, by: str) -> State:
    index = vote_window(state)
    if index is None:
        raise IllegalAction(
            "wrong_phase", "Votes to end the game are open only between rounds (E05, E35)."
        )
    if state.bots[seat]:
        raise IllegalAction("not_eligible", "Only human seats vote; bots agree (E05).")
    if seat in state.votes:
        raise IllegalAction("not_eligible", "You have already voted to end the game.")
    if action["type"] == "propose_end" and state.votes:
        raise IllegalAction("not_eligible", "An end is already proposed: send agree_end.")
    if action["type"] == "agree_end" and not state.votes:
        raise IllegalAction("not_eligible", "Nobody has proposed to end the game yet.")
    target = state.rounds[index]
    seq = state.seq + 1
    entry = LogEntry(seq, seat, ROUND_OVER, by, dumps(action), "[]")
    rounds = list(state.rounds)
    rounds[index] = replace(target, log=(*target.log, entry))
    votes = (*state.votes, seat)
    state = replace(state, rounds=tuple(rounds), seq=seq, votes=votes)
    humans = [s for s in range(state.player_count) if not state.bots[s]]
    if set(humans) <= set(votes):
        if index == len(state.rounds) - 1:  # not yet scored: advance ends the game
            return replace(state, vote_passed=True)
        state = replace(state, rounds=state.rounds[:-1], votes=())
        return replace(state, end=game_end(state, "vote"))
    return state


# --- apply ---------------------------------------------------------------------------


def apply(state: State, seat: int, action: JsonDict, by: str | None = None) -> State:
    """The state after ``seat``'s action, or :class:`IllegalAction` (nothing changes).
    ``by`` records who acted (NE-29.3.5): default "bot" for a bot seat, else "human"; the
    server passes "autopilot" or "timeout"."""
    a = normalise(action)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.player_count:
        raise IllegalAction("not_your_turn", f"There is no seat {seat!r} at this table.")
    if by is None:
        by = "bot" if state.bots[seat] else "human"
    elif by not in BY or by == "prophecy":
        raise ValueError(f"by is one of human, bot, autopilot, timeout, not {by!r}")
    if state.end is not None:
        raise IllegalAction("wrong_phase", "The game is over.")
    kind = a["type"]
    if kind in ("propose_end", "agree_end"):
        return _vote(state, seat, a, by)
    if kind == "set_prophecy":
        return set_prophecy(state, seat, a, by)
    r = state.round
    if kind not in PHASE_ACTIONS[r.phase]:
        allowed = ", ".join(PHASE_ACTIONS[r.phase]) or "no action (the round is being scored)"
        raise IllegalAction(
            "wrong_phase", f"This is the {r.phase} phase: {allowed}, not {kind} (NE-31.1)."
        )
    actor = to_act(state)
    if seat != actor:
        raise IllegalAction(
            "not_your_turn",
            f"It is seat {actor}'s {r.phase.replace('_', ' ')}, not yours (NE-7.1)."
            if actor is not None
            else "No seat acts now.",
        )
    if r.phase == RULE_SETUP:
        return set_rule(state, seat, a, by)
    if r.phase == TURN:
        return take_turn(state, seat, a, by)
    if r.phase == PROPHET_CALL:
        return make_call(state, seat, a, by)
    if r.phase == DEALER_CHOICE:
        return choose_card(state, seat, a, by)
    return post_play(state, seat, a, by)


# --- automatic steps and timeouts ------------------------------------------------------


def advance(state: State) -> State:
    """The automatic step when ``to_act`` is None: score an ended round, reveal it and
    deal the next round's set-up or end the game (NE-12.4, NE-31.1); or the house's rule
    in a house-dealt game (V4)."""
    if state.end is not None:
        raise ValueError("The game is over.")
    r = state.round
    if r.phase == RULE_SETUP and r.dealer is None:
        action = {
            "type": "library_rule",
            "difficulty": state.settings.difficulty,
            "hints": [],
            "no_play_choice": "random",
            "confirm_warnings": False,
        }
        return set_rule(state, None, action, "bot")
    if r.phase != ROUND_OVER or r.score is not None:
        raise ValueError(f"Nothing to advance: seat {to_act(state)} acts in {r.phase}.")
    scored = replace(r, score=score_round(state.player_count, r), current=None, pending=None)
    state = replace(state, rounds=(*state.rounds[:-1], scored))
    if state.vote_passed:
        return replace(state, end=game_end(state, "vote"), votes=())
    if r.number >= state.planned_rounds:
        reason = "round_limit" if state.settings.round_limit is not None else "all_dealt"
        return replace(state, end=game_end(state, reason), votes=())
    number = r.number + 1
    nxt = start_round(
        state.player_count,
        state.settings,
        state.first_dealer,
        number,
        round_seed(state.seed, number),
    )
    return replace(state, rounds=(*state.rounds, nxt))


def timeout_action(state: State) -> JsonDict | None:
    """The action a missed deadline takes by itself (NE-27), or None when the seat's
    autopilot plays instead: a library rule at the table's difficulty for a dealer who set
    none (E32); a missed call in a rated table without a standing prophecy overthrows the
    prophet (E29); a missed post_play passes; a missed dealer choice takes the random
    card of NE-29.3.3 (NE-27.4). A scientist's turn and an unrated prophet's call are the
    autopilot's (NE-27.2, E29): None. ``ValueError`` when no seat acts."""
    if to_act(state) is None:
        raise ValueError("No seat acts now.")
    r = state.round
    if r.phase == RULE_SETUP:
        return {"type": "library_rule", "difficulty": state.settings.difficulty}
    if r.phase == PROPHET_CALL and state.settings.rated and r.prophecy is None:
        return {"type": "call", "verdict": None}
    if r.phase == POST_PLAY:
        return {"type": "pass"}
    if r.phase == DEALER_CHOICE:
        pending = r.pending
        assert pending is not None
        right = right_cards(state)
        return {
            "type": "choose_card",
            "card": card_id(right[choice_index(r.seed, pending.seq, len(right))]),
        }
    return None


def timeout(state: State) -> State:
    """What a missed deadline does (:func:`timeout_action`), logged "by": "timeout". A
    scientist's turn and an unrated prophet's call go to the seat's autopilot, which is
    the server's (NE-27.2, E29): ``ValueError`` here."""
    seat = to_act(state)
    action = timeout_action(state)
    if action is None:
        raise ValueError(
            f"A missed {state.round.phase} is played by the seat's autopilot (NE-27.2, E29)."
        )
    assert seat is not None
    return apply(state, seat, action, by="timeout")


# --- legal actions (NE-28.3) -----------------------------------------------------------


def legal_actions(state: State, seat: int) -> list[JsonDict]:
    """What ``seat`` may do now. A scientist's list names every single-card play and the
    no play, and describes strings by a template (``"template": "string"``); it is never
    filtered by the rule. Only the dealer's ``choose_card`` list is (the dealer knows the
    rule). Entries with a ``"template"`` key describe a family of actions."""
    out: list[JsonDict] = []
    if state.end is not None or not 0 <= seat < state.player_count:
        return out
    r = state.round
    actor = to_act(state)
    if seat == actor:
        if r.phase == RULE_SETUP:
            out += [
                {"type": "library_rule", "difficulty": d, "no_play_choice": "random"}
                for d in DIFFICULTIES
            ]
            out += [
                {"type": "library_rule", "id": e.id, "confirm_warnings": True} for e in library()
            ]
            out.append(
                {
                    "type": "set_rule",
                    "template": "source",
                    "source": "an ERL program (NE-21)",
                    "hints": "verified hint ids (NE-24, E36)",
                    "free_hint": None,
                    "no_play_choice": ["random", "choose"],
                    "confirm_warnings": False,
                }
            )
        elif r.phase == TURN:
            hand = r.hands[seat]
            out += [{"type": "play", "cards": [card_id(c)], "prophet": "no"} for c in hand]
            out.append({"type": "no_play", "prophet": "no"})
            if len(hand) >= 2:
                out.append(
                    {
                        "type": "play",
                        "template": "string",
                        "cards": {"min": 2, "max": min(MAX_PLAY, len(hand)), "from": "hand"},
                        "description": "2 to 4 distinct cards of your hand, in any order",
                        "prophet": list(PROPHET_INTENTS),
                    }
                )
        elif r.phase == PROPHET_CALL:
            pending = r.pending
            assert pending is not None
            if pending.kind == "play":
                out += [{"type": "call", "verdict": v} for v in ("right", "wrong")]
            else:
                out.append({"type": "call", "verdict": "correct"})
                out += [
                    {"type": "call", "verdict": "wrong", "card": card_id(c)}
                    for c in sorted(pending.cards)
                ]
        elif r.phase == DEALER_CHOICE:
            out += [{"type": "choose_card", "card": card_id(c)} for c in right_cards(state)]
        elif r.phase == POST_PLAY:
            out += [{"type": "declare_prophet"}, {"type": "pass"}]
    if r.prophet == seat and r.phase != ROUND_OVER:
        out.append({"type": "set_prophecy", "template": "source", "source": "ERL or null"})
    if vote_window(state) is not None and not state.bots[seat] and seat not in state.votes:
        out.append({"type": "agree_end" if state.votes else "propose_end"})
    return out
