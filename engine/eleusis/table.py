"""Who sits where and what holds now: seats and roles, the rule's main line, sudden death,
who may declare prophet, whose turn is next and whether the round is over.

These read either a frozen :class:`~engine.eleusis.state.Round` or a
:class:`~engine.eleusis.work.Work` through the few attributes both have.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence

from engine.eleusis.deck import face_of
from engine.eleusis.erl import Line, Rule, compile_rule
from engine.eleusis.state import MainCard, ProphetLine, Settings, State

_LINE_CACHE: dict[tuple[str, tuple[int, ...]], Line] = {}
_LINE_CACHE_SIZE = 4096


def scientists(player_count: int, dealer: int | None, number: int) -> list[int]:
    """The scientists clockwise from the dealer's left (NE-5.6, E10); in a house-dealt game
    (V4) every seat, from seat (round - 1) mod n (Our ruling OR18)."""
    start = (dealer + 1) if dealer is not None else (number - 1)
    seats = [(start + i) % player_count for i in range(player_count)]
    return [s for s in seats if s != dealer]


def round_scientists(state: State) -> list[int]:
    r = state.round
    return scientists(state.player_count, r.dealer, r.number)


def rule_of(source: str) -> Rule:
    return compile_rule(source)


def line_of(source: str, faces: tuple[int, ...]) -> Line:
    """The compiled rule's main line over ``faces`` (memoised; extends a cached prefix)."""
    key = (source, faces)
    line = _LINE_CACHE.get(key)
    if line is not None:
        return line
    rule = rule_of(source)
    start = 0
    base = rule.empty()
    for k in range(1, min(8, len(faces)) + 1):
        cached = _LINE_CACHE.get((source, faces[:-k]))
        if cached is not None:
            base, start = cached, len(faces) - k
            break
    for face in faces[start:]:
        base = rule.extend(base, face)
    if len(_LINE_CACHE) >= _LINE_CACHE_SIZE:
        # Drop the oldest entry (another thread may have just done it).
        with contextlib.suppress(StopIteration, RuntimeError):
            _LINE_CACHE.pop(next(iter(_LINE_CACHE)), None)
    _LINE_CACHE[key] = base
    return base


def main_faces(main: Iterable[MainCard]) -> tuple[int, ...]:
    return tuple(face_of(m.card) for m in main)


def office_line(lines: Sequence[ProphetLine], prophet: int | None) -> ProphetLine | None:
    """The line of the prophet in office."""
    if prophet is None:
        return None
    return lines[-1]


def sudden_death(settings: Settings, pc: int, line: ProphetLine | None) -> bool:
    """Whether sudden death is in force for a turn starting at this PC (E20, E21, NE-11.2)."""
    if line is not None:
        return pc - line.m >= settings.sudden_death_prophet
    return pc >= settings.sudden_death


def may_declare(
    seat: int,
    *,
    prophet: int | None,
    lines: Sequence[ProphetLine],
    expelled: Iterable[int],
    ended: bool,
    hand_size: int,
    in_round: Sequence[int],
) -> bool:
    """NE-10.1 (a)-(d): no prophet in office; never prophet this round; at least two other
    scientists not expelled; the round not ended; the seat still holds cards (and is not
    expelled, E22). ``in_round``: the round's scientists."""
    out = set(expelled)
    return (
        prophet is None
        and not any(line.seat == seat for line in lines)
        and seat not in out
        and sum(1 for s in in_round if s != seat and s not in out) >= 2
        and not ended
        and hand_size > 0
    )


def next_player(order: Sequence[int], after: int, prophet: int | None, expelled: set[int]) -> int:
    """The next scientist clockwise after ``after`` who may take a turn (NE-7.1): not the
    prophet in office, not expelled. ``order`` is the scientists clockwise."""
    n = len(order)
    start = order.index(after)
    for i in range(1, n + 1):
        seat = order[(start + i) % n]
        if seat != prophet and seat not in expelled:
            return seat
    raise ValueError("no scientist may take a turn")  # the round has ended (E24)


def end_reason(
    hands: Sequence[Sequence[int]],
    order: Sequence[int],
    prophet: int | None,
    expelled: set[int],
    stock_exhausted: bool,
    turn_count: int,
    max_turns: int,
) -> str | None:
    """Why the round ends after this turn, if it does (NE-12, E24, E25, E42). When two
    reasons hold, the first of out_of_cards, all_expelled, stock_exhausted, turn_limit
    is given (Our ruling OR19)."""
    if any(not hands[s] for s in order):
        return "out_of_cards"
    if all(s in expelled for s in order if s != prophet):
        return "all_expelled"
    if stock_exhausted:
        return "stock_exhausted"
    if turn_count >= max_turns:
        return "turn_limit"
    return None
