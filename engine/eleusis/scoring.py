"""Scoring a round (NE-13, E19, E26, E27) and ending the game (NE-4, E05, E06).

:func:`score` is a pure function of the numbers NE-13 names, so the worked examples of
NE-14 can be checked on it directly; :func:`score_round` reads them from a round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.eleusis.state import (
    DealerScore,
    GameEnd,
    ProphetScore,
    Round,
    RoundScore,
    State,
)
from engine.eleusis.table import scientists

OUT_BONUS = 4  # NE-13.3
EARLY_END_POINTS = 10  # NE-4.2, E05


def score(
    player_count: int,
    dealer: int | None,
    held: Mapping[int, int],
    true_prophet: tuple[int, int, int, int] | None,
    reason: str = "out_of_cards",
    hands: Sequence[Sequence[int]] | None = None,
) -> RoundScore:
    """NE-13 from the hand size of every scientist (``held``: seat -> cards, the prophet's
    set-aside hand and expelled players' hands included) and the true prophet, if any, as
    (seat, m, cards to the main line after the line, cards to side lines after it)."""
    high = max(held.values(), default=0)  # NE-13.1
    scores = [0] * player_count
    out_bonus: list[int | None] = [None] * player_count
    held_list: list[int | None] = [None] * player_count
    for seat, count in held.items():
        held_list[seat] = count
        out_bonus[seat] = OUT_BONUS if count == 0 else 0
        scores[seat] = high - count + (OUT_BONUS if count == 0 else 0)  # NE-13.2, 13.3
    prophet = None
    if true_prophet is not None:
        seat, m, main, side = true_prophet
        bonus = main + 2 * side  # NE-13.4, E26
        scores[seat] += bonus
        prophet = ProphetScore(seat=seat, m=m, main=main, side=side, bonus=bonus)
    dealer_score = None
    if dealer is not None:
        highest = max((scores[s] for s in held), default=0)  # E27: +4 and bonus included
        cap = 2 * prophet.m if prophet is not None else None  # NE-13.5
        dealer_score = DealerScore(
            highest=highest, cap=cap, score=min(highest, cap) if cap is not None else highest
        )
        scores[dealer] = dealer_score.score
    return RoundScore(
        reason=reason,
        hands=tuple(tuple(h) for h in hands) if hands is not None else ((),) * player_count,
        high=high,
        held=tuple(held_list),
        out_bonus=tuple(out_bonus),
        prophet=prophet,
        dealer=dealer_score,
        scores=tuple(scores),
    )


def score_round(player_count: int, r: Round) -> RoundScore:
    """The score of an ended round: a prophet still in office is a true prophet (NE-0.3,
    E19); their bonus counts the cards played after their line (E26)."""
    order = scientists(player_count, r.dealer, r.number)
    true_prophet = None
    if r.prophet is not None:
        line = r.lines[-1]
        true_prophet = (line.seat, line.m, r.main_played - line.main0, r.side_played - line.side0)
    return score(
        player_count,
        r.dealer,
        {s: len(r.hands[s]) for s in order},
        true_prophet,
        r.end_reason or "out_of_cards",
        [sorted(h) for h in r.hands],
    )


def ranking(totals: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Best first; equal totals share a place (E06, no tie-break)."""
    groups: list[list[int]] = []
    for seat in sorted(range(len(totals)), key=lambda s: (-totals[s], s)):
        if groups and totals[groups[-1][0]] == totals[seat]:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return tuple(tuple(g) for g in groups)


def game_end(state: State, reason: str) -> GameEnd:
    """Totals with the early-end points of E05 (10 to every seat that has not dealt when
    the game ends by a round limit or a vote; none in a house-dealt game, OR23)."""
    n = state.player_count
    totals = [0] * n
    dealt = set()
    for r in state.rounds:
        if r.score is None:
            continue
        dealt.add(r.dealer)
        for seat, points in enumerate(r.score.scores):
            totals[seat] += points
    early = [0] * n
    if reason in ("round_limit", "vote") and not state.settings.house_dealt:
        early = [0 if seat in dealt else EARLY_END_POINTS for seat in range(n)]
    final = [t + e for t, e in zip(totals, early, strict=True)]
    return GameEnd(
        reason=reason,
        early_end_points=tuple(early),
        totals=tuple(final),
        ranking=ranking(final),
    )


def totals_so_far(state: State) -> list[int]:
    totals = [0] * state.player_count
    for r in state.rounds:
        if r.score is not None:
            for seat, points in enumerate(r.score.scores):
                totals[seat] += points
    return totals
