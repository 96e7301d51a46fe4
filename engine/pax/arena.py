"""Seeded Pax Illuminaten games between seat bots, and against each automa (issue 23 item
5), pure: ``python -m engine.arena pax`` (engine/arena.py: processes, clock, printing)
plays them; this module plays one game and summarises games.

A *pairing* is a variant of ``META.variants`` (``standard``, or ``automa-<bot>`` with
the automa in the last seat, H.2), a player count and a line-up: the bot kinds of the
seats the bots play (every seat for ``standard``, seats 0 to N-2 with an automa). Game
``i`` of a pairing has the seed ``"<seed>/<variant>/<players>/<line-up>/<i>"`` and seats
the line-up rotated by ``i`` (game ``i`` gives seat ``s`` the kind ``lineup[(s + i) mod
k]``), so every kind plays every seat equally often; a seat's bot draws from
``random.Random("<game seed>/seat/<s>")``. A game depends on nothing else, so a report
does not depend on how games are spread over processes (P-55).

Measured per bot kind over the seat-games it played: wins (the seat is among
``winner_seats``; a shared win counts for each winner) with the Wilson 95% interval of the
share, and, when a clock is given, CPU seconds per decision with a choice (median, max).
Games are bounded by the round cap of 15.5.3 (``round_cap``, default 60 rounds).
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.core import JsonDict
from engine.pax.game import PaxGame
from engine.stats import wilson

META = PaxGame.META
DEFAULT_ROUND_CAP = 60
STANDARD = "standard"


class ArenaError(Exception):
    """A bot failed (an illegal action or an exception), naming the game."""


@dataclass(frozen=True)
class Pairing:
    """One line-up in one variant and player count."""

    variant: str
    players: int
    lineup: tuple[str, ...]

    @property
    def bot_seats(self) -> int:
        """The seats the bots play: all, or all but the automa's (seat N-1, R12)."""
        return self.players - (self.variant != STANDARD)

    @property
    def label(self) -> str:
        return f"{self.variant}/{self.players}/{','.join(self.lineup)}"


def pairing_problems(p: Pairing) -> list[str]:
    """What is wrong with a pairing, one sentence each ([] when it can be played)."""
    out = []
    if p.variant not in META.variants:
        out.append(f"unknown variant {p.variant!r} (known: {', '.join(META.variants)})")
    if p.players not in META.player_counts:
        out.append(f"players must be one of {META.player_counts}, not {p.players}")
    if len(p.lineup) != p.bot_seats:
        out.append(f"{p.label}: the line-up names {len(p.lineup)} bots for {p.bot_seats} seats")
    unknown = sorted(set(p.lineup) - set(META.bots))
    if unknown:
        out.append(f"unknown bot(s) {', '.join(unknown)} (known: {', '.join(sorted(META.bots))})")
    return out


def automa_variants() -> list[str]:
    """The variants with an automa that the engine offers (H.2)."""
    return [v for v in META.variants if v != STANDARD]


def suite(bots: Sequence[str] = ("heuristic", "search")) -> list[Pairing]:
    """The pairings of issue 23's goals: the bots against each other in 2, 3 and 4 seats
    and against random, then each bot alone against each automa (2 seats, seat 0)."""
    out = [
        Pairing(STANDARD, 2, ("heuristic", "random")),
        Pairing(STANDARD, 2, ("search", "heuristic")),
        Pairing(STANDARD, 2, ("search", "random")),
        Pairing(STANDARD, 3, ("search", "heuristic", "random")),
        Pairing(STANDARD, 4, ("search", "heuristic", "random", "random")),
    ]
    for variant in automa_variants():
        out += [Pairing(variant, 2, (kind,)) for kind in bots]
    return out


@dataclass
class GameOutcome:
    """One game: who sat where, who won, how and how long."""

    kinds: tuple[str, ...]  # per bot seat
    winners: tuple[int, ...]
    reason: str
    rounds: int
    decisions: int
    seconds: dict[str, list[float]] = field(default_factory=dict)


def game_seed(seed: str, p: Pairing, index: int) -> str:
    return f"{seed}/{p.label}/{index}"


def play_game(
    p: Pairing,
    seed: str,
    index: int,
    round_cap: int | None = DEFAULT_ROUND_CAP,
    clock: Callable[[], float] | None = None,
) -> GameOutcome:
    """Game ``index`` of a pairing (P-55)."""
    gseed = game_seed(seed, p, index)
    k = len(p.lineup)
    kinds = tuple(p.lineup[(s + index) % k] for s in range(p.bot_seats))
    rngs = [random.Random(f"{gseed}/seat/{s}") for s in range(p.players)]
    state = PaxGame.new_game(p.players, p.variant, gseed, {"round_cap": round_cap})
    seconds: dict[str, list[float]] = {}
    decisions = 0
    while not PaxGame.is_over(state):
        seat = PaxGame.to_act(state)
        if seat is None:
            state = PaxGame.advance(state)
            continue
        if seat >= p.bot_seats:
            raise ArenaError(f"{gseed}: the automa's seat {seat} was asked to decide")
        view = PaxGame.view(state, seat)
        bot = META.bots[kinds[seat]]
        start = clock() if clock is not None else 0.0
        try:
            action = bot(view, rngs[seat])
            if clock is not None and len(view["legal_actions"]) > 1:
                seconds.setdefault(kinds[seat], []).append(clock() - start)
            state = PaxGame.apply(state, seat, action)
        except Exception as exc:  # a bot's failure is the arena's finding, with its game
            raise ArenaError(f"{gseed}: seat {seat} ({kinds[seat]}): {exc!r}") from exc
        decisions += 1
    res = PaxGame.result(state)
    assert res is not None
    return GameOutcome(
        kinds, tuple(res["winner_seats"]), res["reason"], state.round, decisions, seconds
    )


def _quantile(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summarise(p: Pairing, outcomes: Sequence[GameOutcome], planned: int) -> JsonDict:
    """Per kind: seat-games, wins and the Wilson 95% interval; decision CPU times."""
    kinds = list(dict.fromkeys(p.lineup))
    seat_games: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    secs: dict[str, list[float]] = {k: [] for k in kinds}
    reasons: Counter[str] = Counter()
    automa_wins = 0
    for o in outcomes:
        reasons[o.reason] += 1
        for seat, kind in enumerate(o.kinds):
            seat_games[kind] += 1
            wins[kind] += seat in o.winners
        automa_wins += any(w >= p.bot_seats for w in o.winners)
        for kind, values in o.seconds.items():
            secs[kind].extend(values)
    bots: JsonDict = {}
    for kind in kinds:
        interval = wilson(wins[kind], seat_games[kind])
        values = secs[kind]
        bots[kind] = {
            "seat_games": seat_games[kind],
            "wins": wins[kind],
            "win_rate": interval.to_json(),
            "decisions_timed": len(values),
            "seconds_median": statistics.median(values) if values else None,
            "seconds_p99": _quantile(values, 0.99),
            "seconds_max": max(values) if values else None,
        }
    games = len(outcomes)
    return {
        "pairing": p.label,
        "variant": p.variant,
        "players": p.players,
        "lineup": list(p.lineup),
        "games": games,
        "planned_games": planned,
        "reasons": dict(sorted(reasons.items())),
        "automa_wins": automa_wins if p.bot_seats < p.players else None,
        "mean_rounds": (sum(o.rounds for o in outcomes) / games) if games else None,
        "decisions_per_game": (sum(o.decisions for o in outcomes) / games) if games else None,
        "bots": bots,
    }


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def format_summary(s: JsonDict) -> str:
    """One pairing's summary as text lines."""
    head = f"{s['pairing']}: {s['games']} games"
    if s["games"] < s["planned_games"]:
        head += f" of {s['planned_games']} planned (stopped by the time limit)"
    head += f"; ends {s['reasons']}"
    if s["mean_rounds"] is not None:
        head += f"; {s['mean_rounds']:.1f} rounds, {s['decisions_per_game']:.0f} decisions a game"
    lines = [head]
    for kind, b in s["bots"].items():
        w = b["win_rate"]
        line = (
            f"  {kind:<10} wins {b['wins']}/{b['seat_games']} = {_pct(w['estimate'])}"
            f" [{_pct(w['low'])}, {_pct(w['high'])}]"
        )
        if b["seconds_median"] is not None:
            line += (
                f"; CPU s/decision median {b['seconds_median']:.4f},"
                f" p99 {b['seconds_p99']:.3f}, max {b['seconds_max']:.3f}"
                f" ({b['decisions_timed']} decisions)"
            )
        lines.append(line)
    return "\n".join(lines)


def parse_pairing(variant: str, players: int, seats: str) -> Pairing:
    return Pairing(variant, players, tuple(x.strip() for x in seats.split(",") if x.strip()))
