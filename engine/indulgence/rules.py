"""The validated rules: to_act, legal_actions, apply, advance, replay.

``new_game`` and ``start_hand`` build states in :mod:`.start` (imported here).

Every function is pure: states are immutable and ``apply`` either returns a new state or
raises :class:`IllegalAction` (docs/engine.md lists the codes).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import CARD_IDS, CARD_INDEX, FAMILIES, FAMILY_INDEX, FAMILY_MASKS, ids_of
from engine.core import IllegalAction, JsonDict
from engine.indulgence.edicts import CATALOG, EDICT_INDEX
from engine.indulgence.settlement import (
    HandContext,
    Progress,
    hand_context,
    hand_decided,
    pending_tie,
    settle,
    trick_winner,
    winner_by_florins,
)
from engine.indulgence.start import new_game, start_hand
from engine.indulgence.state import ActionItems, HandRecord, Move, Phase, Play, Result, State, Trick

_PHASE_OF_ACTION = {
    "choose_edict": Phase.CHOOSING_EDICT,
    "papal_bull": Phase.CHOOSING_EDICT,
    "name_trump": Phase.NAMING_TRUMP,
    "sin": Phase.SIN_DECISION,
    "pass": Phase.SIN_DECISION,
    "play": Phase.PLAYING,
    "resolve_tie": Phase.RESOLVING_TIES,
}
_ACTION_KEYS = {
    "choose_edict": frozenset({"type", "edict"}),
    "papal_bull": frozenset({"type"}),
    "name_trump": frozenset({"type", "family"}),
    "sin": frozenset({"type"}),
    "pass": frozenset({"type"}),
    "play": frozenset({"type", "card", "indulgence"}),
    "resolve_tie": frozenset({"type", "family", "seat"}),
}
_VERBS = {
    "choose_edict": "choose an edict",
    "papal_bull": "play a papal bull",
    "name_trump": "name trump",
    "sin": "sin",
    "pass": "pass",
    "play": "play a card",
    "resolve_tie": "resolve a tie",
}
_PHASE_NOW = {
    Phase.CHOOSING_EDICT: "the Ruler is choosing an edict",
    Phase.NAMING_TRUMP: "the Ruler is naming trump",
    Phase.SIN_DECISION: "players are deciding whether to sin",
    Phase.PLAYING: "cards are being played",
    Phase.RESOLVING_TIES: "a tie for the most of a family is being resolved",
    Phase.SETTLING: "the hand is waiting to be settled",
    Phase.FINISHED: "the game is over",
}


# --- Queries ----------------------------------------------------------------------------


def to_act(state: State) -> int | None:
    """The seat to act, or None when an automatic step is due or the game is over."""
    return state.to_act


def is_over(state: State) -> bool:
    return state.phase is Phase.FINISHED


def result(state: State) -> JsonDict | None:
    """{"winner_seat", "florins": {"0": n, ...}, "reason"} once the game is over."""
    res = state.result
    if res is None:
        return None
    return {
        "winner_seat": res.winner,
        "florins": {str(seat): f for seat, f in enumerate(res.florins)},
        "reason": res.reason,
    }


def current_row(state: State) -> tuple[int, ...]:
    """The edicts still in the row (the chosen edict, or all after a papal bull, left it)."""
    if not state.in_force:
        return state.row
    return tuple(e for e in state.row if e not in state.in_force)


def context_of(state: State) -> HandContext:
    return hand_context(
        state.player_count, state.ruler, state.sinner, state.in_force, state.papal_bull, state.trump
    )


def progress_of(state: State) -> Progress:
    """The hand's progress as the scoring code sees it (between tricks)."""
    remaining = 0
    for hand in state.hands:
        remaining |= hand
    tricks = state.tricks
    tricks_left = state.tricks_per_hand - len(tricks)
    return Progress(
        taken=state.taken,
        remaining=remaining,
        trick_counts=state.trick_counts,
        tricks_left=tricks_left,
        first_winner=tricks[0].winner if tricks else None,
        last_winner=tricks[-1].winner if tricks and tricks_left == 0 else None,
        first_to_three=state.first_to_three,
        last_takers=state.last_takers,
    )


def playable_mask(state: State, seat: int) -> int:
    """The cards ``seat`` may play now (follow suit; first-lead restriction)."""
    hand = state.hands[seat]
    plays = state.plays
    if plays:
        follow = hand & FAMILY_MASKS[plays[0][1] // 9]
        return follow or hand
    if not state.tricks:
        restricted = context_of(state).restricted_lead
        free = hand & ~restricted
        return free or hand
    return hand


def ring_allowed(state: State, seat: int) -> bool:
    """Whether ``seat`` may put the Indulgence ring on the card it plays now."""
    return seat == state.sinner and not state.ring_used and bool(state.tricks)


def legal_actions(state: State, seat: int) -> list[JsonDict]:
    """Every legal action of ``seat``, fully spelled out ([] when not to act)."""
    if seat != state.to_act or state.to_act is None:
        return []
    phase = state.phase
    if phase is Phase.PLAYING:
        mask = playable_mask(state, seat)
        ring = ring_allowed(state, seat)
        actions: list[JsonDict] = []
        while mask:
            low = mask & -mask
            card_id = CARD_IDS[low.bit_length() - 1]
            actions.append({"type": "play", "card": card_id, "indulgence": False})
            if ring:
                actions.append({"type": "play", "card": card_id, "indulgence": True})
            mask ^= low
        return actions
    if phase is Phase.SIN_DECISION:
        return [{"type": "pass"}, {"type": "sin"}]
    if phase is Phase.CHOOSING_EDICT:
        actions = [{"type": "choose_edict", "edict": CATALOG[e].id} for e in state.row]
        if state.papal_bulls[seat]:
            actions.append({"type": "papal_bull"})
        return actions
    if phase is Phase.NAMING_TRUMP:
        return [{"type": "name_trump", "family": family} for family in FAMILIES]
    if phase is Phase.RESOLVING_TIES:
        assert state.pending_tie is not None
        family, _chooser, tied = state.pending_tie
        return [{"type": "resolve_tie", "family": FAMILIES[family], "seat": s} for s in tied]
    return []


# --- Validation -------------------------------------------------------------------------


def _malformed(message: str) -> IllegalAction:
    return IllegalAction("malformed_action", message)


def _show(value: object) -> str:
    """A client's value quoted in a message, cut short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _parse(action: Any, player_count: int) -> ActionItems:
    """Check an action's shape and return its canonical form (raises malformed_action)."""
    if not isinstance(action, dict):
        raise _malformed("An action must be a JSON object.")
    kind = action.get("type")
    keys = _ACTION_KEYS.get(kind) if isinstance(kind, str) else None
    if keys is None:
        raise _malformed(
            f"Unknown action type {_show(kind)}; expected one of: {', '.join(_ACTION_KEYS)}."
        )
    extra = action.keys() - keys
    if extra:
        fields = ", ".join(sorted(_show(k) for k in extra))
        raise _malformed(f"Unexpected field(s) for {kind}: {fields}.")
    if kind == "play":
        card = action.get("card")
        if type(card) is not str or card not in CARD_INDEX:
            raise _malformed(f"'card' must be a card id such as 'M7', not {_show(card)}.")
        ring = action.get("indulgence", False)
        if type(ring) is not bool:
            raise _malformed(f"'indulgence' must be true or false, not {_show(ring)}.")
        return (("type", "play"), ("card", card), ("indulgence", ring))
    missing = keys - action.keys()
    if missing:
        raise _malformed(f"Missing field(s) for {kind}: {', '.join(sorted(missing))}.")
    if kind == "choose_edict":
        edict = action["edict"]
        if type(edict) is not str:
            raise _malformed(f"'edict' must be an edict id, not {_show(edict)}.")
        return (("type", kind), ("edict", edict))
    if kind in ("name_trump", "resolve_tie"):
        family = action["family"]
        if type(family) is not str or family not in FAMILY_INDEX:
            raise _malformed(f"'family' must be one of {', '.join(FAMILIES)}, not {_show(family)}.")
        if kind == "name_trump":
            return (("type", kind), ("family", family))
        seat = action["seat"]
        if type(seat) is not int or not 0 <= seat < player_count:
            raise _malformed(
                f"'seat' must be a seat number 0..{player_count - 1}, not {_show(seat)}."
            )
        return (("type", kind), ("family", family), ("seat", seat))
    return (("type", str(kind)),)


def _check_seat(state: State, seat: Any) -> None:
    if type(seat) is not int or not 0 <= seat < state.player_count:
        raise IllegalAction("invalid_seat", f"There is no seat {_show(seat)} at this table.")


# --- apply ------------------------------------------------------------------------------


def apply(state: State, seat: int, action: JsonDict) -> State:
    """The state after ``seat`` takes ``action``; raises IllegalAction and changes nothing."""
    if state.phase is Phase.FINISHED:
        raise IllegalAction("game_over", "The game is over.")
    _check_seat(state, seat)
    items = _parse(action, state.player_count)
    if seat != state.to_act:
        if state.to_act is None:
            raise IllegalAction(
                "not_your_turn", "No player is to act: the hand is waiting to be settled."
            )
        raise IllegalAction(
            "not_your_turn", f"It is seat {state.to_act}'s turn, not seat {seat}'s."
        )
    kind = items[0][1]
    assert isinstance(kind, str)
    if _PHASE_OF_ACTION[kind] is not state.phase:
        raise IllegalAction(
            "wrong_phase", f"You cannot {_VERBS[kind]} now: {_PHASE_NOW[state.phase]}."
        )
    move: Move = (seat, items)
    if kind == "play":
        return _play(state, seat, CARD_INDEX[str(items[1][1])], items[2][1] is True, move)
    if kind in ("sin", "pass"):
        return _decide_sin(state, seat, kind == "sin", move)
    if kind == "choose_edict":
        return _choose(state, seat, str(items[1][1]), move)
    if kind == "papal_bull":
        return _papal_bull(state, seat, move)
    if kind == "name_trump":
        return _name_trump(state, str(items[1][1]), move)
    family = FAMILY_INDEX[str(items[1][1])]
    chosen = items[2][1]
    assert isinstance(chosen, int)
    return _resolve_tie(state, seat, family, chosen, move)


def _after_choice(state: State, in_force: tuple[int, ...], papal_bull: bool, move: Move) -> State:
    n = state.player_count
    if any(CATALOG[e].kind == "any_trump" for e in in_force):
        phase, actor = Phase.NAMING_TRUMP, state.ruler
    else:
        phase, actor = Phase.SIN_DECISION, (state.ruler + 1) % n
    return state._replace(
        in_force=in_force,
        papal_bull=papal_bull,
        phase=phase,
        to_act=actor,
        hand_moves=(*state.hand_moves, move),
    )


def _choose(state: State, seat: int, edict_id: str, move: Move) -> State:
    index = EDICT_INDEX.get(edict_id)
    if index is None:
        raise IllegalAction("unknown_edict", f"There is no edict {_show(edict_id)}.")
    if index not in state.row:
        row = ", ".join(CATALOG[e].id for e in state.row)
        raise IllegalAction(
            "edict_not_in_row", f"Edict {edict_id!r} is not in the row (the row holds {row})."
        )
    return _after_choice(state, (index,), False, move)


def _papal_bull(state: State, seat: int, move: Move) -> State:
    if state.variant != "expert":
        raise IllegalAction("papal_bull_unavailable", "There are no papal bulls in the basic game.")
    if not state.papal_bulls[seat]:
        raise IllegalAction("papal_bull_unavailable", "You have already used your papal bull.")
    bulls = (*state.papal_bulls[:seat], False, *state.papal_bulls[seat + 1 :])
    return _after_choice(state._replace(papal_bulls=bulls), state.row, True, move)


def _name_trump(state: State, family: str, move: Move) -> State:
    return state._replace(
        trump=FAMILY_INDEX[family],
        phase=Phase.SIN_DECISION,
        to_act=(state.ruler + 1) % state.player_count,
        hand_moves=(*state.hand_moves, move),
    )


def _decide_sin(state: State, seat: int, sins: bool, move: Move) -> State:
    decisions = (*state.sin_decisions, (seat, sins))
    moves = (*state.hand_moves, move)
    nxt = (seat + 1) % state.player_count
    if not sins and nxt != state.ruler:
        return state._replace(sin_decisions=decisions, to_act=nxt, hand_moves=moves)
    leader = seat if sins else state.ruler
    return state._replace(
        sin_decisions=decisions,
        sinner=seat if sins else None,
        phase=Phase.PLAYING,
        to_act=leader,
        leader=leader,
        hand_moves=moves,
    )


def _play(state: State, seat: int, card: int, ring: bool, move: Move) -> State:
    hand = state.hands[seat]
    bit = 1 << card
    if not hand & bit:
        raise IllegalAction("card_not_in_hand", f"You do not hold {CARD_IDS[card]}.")
    plays = state.plays
    if plays:
        led = plays[0][1] // 9
        follow = hand & FAMILY_MASKS[led]
        if follow and not bit & follow:
            raise IllegalAction(
                "must_follow_suit",
                f"You must follow {FAMILIES[led]}: you hold {', '.join(ids_of(follow))}.",
            )
    elif not state.tricks:
        ctx = context_of(state)
        if bit & ctx.restricted_lead and hand & ~ctx.restricted_lead:
            family = FAMILIES[card // 9]
            names = ", ".join(
                e.id
                for e in ctx.edicts
                if (e.families and family in e.families) or e.kind == "any_trump"
            )
            raise IllegalAction(
                "first_lead_restricted",
                f"You may not lead {family} in the first trick ({names} in force)"
                " while you hold other families.",
            )
    if ring:
        if seat != state.sinner:
            raise IllegalAction(
                "indulgence_not_allowed", "Only the sinner may use the Indulgence ring."
            )
        if state.ring_used:
            raise IllegalAction(
                "indulgence_not_allowed", "The Indulgence ring has already been used this hand."
            )
        if not state.tricks:
            raise IllegalAction(
                "indulgence_not_allowed", "The Indulgence ring cannot be used in the first trick."
            )
    hands = (*state.hands[:seat], hand ^ bit, *state.hands[seat + 1 :])
    plays = (*plays, (seat, card, ring))
    moves = (*state.hand_moves, move)
    if len(plays) < state.player_count:
        return state._replace(
            hands=hands,
            plays=plays,
            to_act=(seat + 1) % state.player_count,
            ring_used=state.ring_used or ring,
            hand_moves=moves,
        )
    return _finish_trick(state, hands, plays, state.ring_used or ring, moves)


def _finish_trick(
    state: State,
    hands: tuple[int, ...],
    plays: tuple[Play, ...],
    ring_used: bool,
    moves: tuple[Move, ...],
) -> State:
    winner = trick_winner(plays, state.trump)
    trick_cards = 0
    for _seat, card, _ring in plays:
        trick_cards |= 1 << card
    remaining = 0
    for hand in hands:
        remaining |= hand
    taken = list(state.taken)
    taken[winner] |= trick_cards
    counts = list(state.trick_counts)
    counts[winner] += 1
    first_to_three = state.first_to_three
    if first_to_three is None and counts[winner] == 3:
        first_to_three = winner
    last_takers = state.last_takers
    for family, fmask in enumerate(FAMILY_MASKS):
        if trick_cards & fmask and not remaining & fmask:
            last_takers = (*last_takers[:family], winner, *last_takers[family + 1 :])
    tricks = (*state.tricks, Trick(state.leader, plays, winner))
    tricks_left = state.tricks_per_hand - len(tricks)
    new_taken = tuple(taken)
    new_counts = tuple(counts)
    progress = Progress(
        taken=new_taken,
        remaining=remaining,
        trick_counts=new_counts,
        tricks_left=tricks_left,
        first_winner=tricks[0].winner,
        last_winner=winner if tricks_left == 0 else None,
        first_to_three=first_to_three,
        last_takers=last_takers,
    )
    ctx = context_of(state)
    state = state._replace(
        hands=hands,
        ring_used=ring_used,
        leader=winner,
        plays=(),
        tricks=tricks,
        taken=new_taken,
        trick_counts=new_counts,
        first_to_three=first_to_three,
        last_takers=last_takers,
        hand_moves=moves,
    )
    if not hand_decided(ctx, progress):
        return state._replace(to_act=winner)
    tie = pending_tie(ctx, progress, ())
    return state._replace(
        phase=Phase.RESOLVING_TIES if tie else Phase.SETTLING,
        to_act=tie[1] if tie else None,
        ended_early=tricks_left > 0,
        pending_tie=tie,
    )


def _resolve_tie(state: State, seat: int, family: int, chosen: int, move: Move) -> State:
    tie = state.pending_tie
    assert tie is not None
    tie_family, _chooser, tied = tie
    if family != tie_family:
        raise IllegalAction(
            "invalid_tie_choice",
            f"The tie to resolve now is for {FAMILIES[tie_family]}, not {FAMILIES[family]}.",
        )
    if chosen not in tied:
        raise IllegalAction(
            "invalid_tie_choice",
            f"Seat {chosen} is not tied for the most {FAMILIES[family]}"
            f" (tied: {', '.join(map(str, tied))}).",
        )
    choices = (*state.tie_choices, (family, seat, chosen))
    nxt = pending_tie(context_of(state), progress_of(state), choices)
    return state._replace(
        tie_choices=choices,
        pending_tie=nxt,
        phase=Phase.RESOLVING_TIES if nxt else Phase.SETTLING,
        to_act=nxt[1] if nxt else None,
        hand_moves=(*state.hand_moves, move),
    )


# --- advance ----------------------------------------------------------------------------


def advance(state: State) -> State:
    """Settle the finished hand, then deal the next hand or finish the game."""
    if state.phase is not Phase.SETTLING:
        if state.phase is Phase.FINISHED:
            raise IllegalAction("no_automatic_step", "No automatic step is due: the game is over.")
        raise IllegalAction(
            "no_automatic_step", f"No automatic step is due: seat {state.to_act} is to act."
        )
    settlement = settle(context_of(state), progress_of(state), state.tie_choices, state.florins)
    record = HandRecord(
        number=state.hand_number,
        ruler=state.ruler,
        deal=state.deal,
        row=state.row,
        in_force=state.in_force,
        papal_bull=state.papal_bull,
        trump=state.trump,
        sin_decisions=state.sin_decisions,
        sinner=state.sinner,
        tricks=state.tricks,
        ended_early=state.ended_early,
        tie_choices=state.tie_choices,
        settlement=settlement,
        moves=state.hand_moves,
    )
    florins = settlement.florins_after
    settled = state._replace(
        history=(*state.history, record), florins=florins, hand_moves=(), to_act=None
    )
    outcome: Result | None = None
    if settlement.papal_bull_win:
        assert state.sinner is not None
        outcome = Result(state.sinner, florins, "papal_bull_sin")
    elif settlement.bankruptcy:
        outcome = Result(winner_by_florins(florins, state.ruler), florins, "bankruptcy")
    elif state.hand_number == state.total_hands:
        outcome = Result(winner_by_florins(florins, state.ruler), florins, "rounds_complete")
    if outcome is not None:
        return settled._replace(phase=Phase.FINISHED, result=outcome)
    return start_hand(settled, state.hand_number + 1)


def replay(
    player_count: int,
    variant: str,
    seed: str,
    moves: Sequence[tuple[int, JsonDict]],
    *,
    settle_last: bool = True,
) -> State:
    """Re-apply a move log from a new game, taking every automatic step on the way.

    ``advance`` runs whenever no one is to act and the game is not over, including after
    the last move; with ``settle_last=False`` the state right after the last move is
    returned (a hand may then be waiting to be settled).
    """
    state = new_game(player_count, variant, seed)
    for seat, action in moves:
        while state.to_act is None and state.phase is not Phase.FINISHED:
            state = advance(state)
        state = apply(state, seat, action)
    if settle_last:
        while state.to_act is None and state.phase is not Phase.FINISHED:
            state = advance(state)
    return state
