"""Whole games against the automa, for the figures of docs/pax.md (pure: no clock, no
printing; the caller prints).

``measure(games, seed, cap)`` plays ``games`` games for each automa at 2, 3 and 4 seats,
the humans choosing uniformly among their legal actions (``random.Random`` seeded per
game), checks every 16.3 invariant after every step, and counts how the games end.

    python -c "from engine.pax.automa.measure import measure, table; \\
               print(table(measure(50, 'figures', 60)))"
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.pax import engine as E
from engine.pax.invariants import problems

BOTS = ("SG", "J2", "AC", "AW")


@dataclass
class Tally:
    """How the games of one automa at one seat count ended."""

    games: int = 0
    steps: int = 0
    automa_wins: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    plots: dict[int, int] = field(default_factory=dict)
    rounds: int = 0
    broken: list[str] = field(default_factory=list)


def play(players: int, bot: str, seed: str, cap: int, tally: Tally) -> None:
    state = E.new_game(players, f"automa-{bot}", seed, {"round_cap": cap})
    rng = random.Random(seed)
    while not E.is_over(state):
        seat = E.to_act(state)
        if seat is None:
            state = E.advance(state)
        else:
            state = E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
        tally.steps += 1
        tally.broken += problems(state)
    result = E.result(state)
    assert result is not None
    tally.games += 1
    tally.rounds += state.round
    tally.reasons[result["reason"]] = tally.reasons.get(result["reason"], 0) + 1
    if players - 1 in result["winner_seats"]:
        tally.automa_wins += 1
    if result["automa_plot"] is not None:
        tally.plots[result["automa_plot"]] = tally.plots.get(result["automa_plot"], 0) + 1


def measure(games: int, seed: str, cap: int) -> dict[tuple[str, int], Tally]:
    out: dict[tuple[str, int], Tally] = {}
    for bot in BOTS:
        for players in (2, 3, 4):
            tally = out[(bot, players)] = Tally()
            for i in range(games):
                play(players, bot, f"{seed}-{bot}-{players}-{i}", cap, tally)
    return out


def table(results: dict[tuple[str, int], Tally]) -> str:
    """A Markdown table of the results."""
    rows = [
        "| automa | seats | games | steps | automa wins | by its plots (1/2/3) | rounds (mean) |"
        " broken invariants |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for (bot, players), x in results.items():
        plots = "/".join(str(x.plots.get(n, 0)) for n in (1, 2, 3))
        rows.append(
            f"| {bot} | {players} | {x.games} | {x.steps} | {x.automa_wins} | {plots} | "
            f"{x.rounds / max(1, x.games):.1f} | {len(x.broken)} |"
        )
    return "\n".join(rows)
