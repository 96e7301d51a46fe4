"""Seeded single-round matches between New Eleusis bots (issue 22, item 6), pure.

``python -m engine.arena eleusis`` (engine/arena.py: processes, clock, printing) plays
them; this module plays one round and summarises rounds.

A round: a ``standard`` table of ``len(seats) + 1`` seats with ``round_limit`` 1 (E05
(a)), so the game is that one round. The first dealer is drawn from the game seed (E04)
and deals with the ``dealer`` bot (NE-30.4, E32): a library rule of the round's tier
(Our ruling OR20). The scientists sit clockwise from the dealer's left in the order of
``seats`` rotated by the round's index (round ``i`` starts the list at ``seats[i mod k]``),
so over the rounds every kind sits at every position equally often. The game seed of
round ``i`` of a tier is ``"<seed>/<tier>/<i>"`` and a seat's bot draws from
``random.Random("<game seed>/seat/<seat>")``: a round depends on nothing else, so a
report does not depend on how rounds are spread over processes.

What is measured (Our ruling OR39, docs/eleusis.md) per bot kind, over the seat-rounds
it played (one seat in one round):

- *true prophet*: the seat is the prophet in office when the round ends (NE-0.3, E19);
- *plays to office*: for a true prophet, the number of judged turns of the round (plays,
  strings and no plays of every scientist, its own declaring turn included; ``round.turns``
  of the view, the ``verdict`` events of the record's log) before its ``prophet`` event:
  from then on every one of its calls was right;
- *overthrown*: the seat was a false prophet (at most once a round, NE-10.1 (b));
- *points*: the seat's score of the round (NE-13; the early-end points of E05 are a
  property of the one-round setting and are left out).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.core import Bot, IllegalAction, JsonDict
from engine.eleusis import META, advance, apply, is_over, new_game, to_act, view
from engine.eleusis.bots import dealer_bot
from engine.eleusis.setup import TIERS, tier
from engine.eleusis.state import DIFFICULTIES, Round, State
from engine.stats import Interval, mean_interval, wilson

DEALER_KINDS = frozenset({"dealer"})
"""Bot kinds that only deal (they have no scientist's play)."""
MIN_SCIENTISTS = 2
MAX_SCIENTISTS = 9  # a standard table has 3 to 10 seats, one of them the dealer


class ArenaError(Exception):
    """A bot failed (an illegal action or an exception), with the round that shows it."""


@dataclass(frozen=True)
class ArenaConfig:
    seats: tuple[str, ...]  # the scientists' bot kinds, from the dealer's left
    tiers: tuple[str, ...] = DIFFICULTIES
    rounds: int = 100  # per tier
    seed: str = "arena"
    sanity_walks: int = 300  # the table's sanity walks (NE-22.4), the engine's default
    compare: tuple[str, str] | None = None


def scientist_kinds() -> list[str]:
    return sorted(k for k in META.bots if k not in DEALER_KINDS)


def config_problems(config: ArenaConfig) -> list[str]:
    """What makes a configuration unplayable, one sentence each (empty if none)."""
    problems = []
    known = scientist_kinds()
    unknown = [k for k in config.seats if k not in META.bots]
    if unknown:
        problems.append(
            f"unknown bot kind(s) {', '.join(unknown)} (scientists: {', '.join(known)})"
        )
    dealers = sorted({k for k in config.seats if k in DEALER_KINDS})
    if dealers:
        problems.append(
            f"{', '.join(dealers)} only deals; the seats are scientists ({', '.join(known)})"
        )
    if not MIN_SCIENTISTS <= len(config.seats) <= MAX_SCIENTISTS:
        problems.append(
            f"{len(config.seats)} scientist seats: a table has {MIN_SCIENTISTS} to "
            f"{MAX_SCIENTISTS} scientists besides the dealer"
        )
    bad_tiers = [t for t in config.tiers if t not in DIFFICULTIES]
    if bad_tiers or not config.tiers:
        problems.append(
            f"unknown tier(s) {', '.join(bad_tiers) or '(none given)'} "
            f"(tiers: {', '.join(DIFFICULTIES)})"
        )
    if len(set(config.tiers)) != len(config.tiers):
        problems.append("a tier is named twice")
    if config.rounds < 1:
        problems.append("at least 1 round per tier")
    if not 1 <= config.sanity_walks <= 300:
        problems.append("sanity walks are 1 to 300")
    if config.compare is not None:
        a, b = config.compare
        if a == b:
            problems.append(f"--compare needs two different kinds, not {a} twice")
        missing = [k for k in (a, b) if k not in config.seats]
        if missing:
            problems.append(f"--compare: {', '.join(missing)} not among the seats")
    return problems


def game_seed(seed: str, tier_name: str, index: int) -> str:
    return f"{seed}/{tier_name}/{index}"


def rotated(seats: Sequence[str], index: int) -> tuple[str, ...]:
    """The line-up of round ``index``: ``seats`` started at ``seats[index mod k]``."""
    k = len(seats)
    return tuple(seats[(index + p) % k] for p in range(k))


@dataclass(frozen=True)
class SeatOutcome:
    kind: str
    seat: int
    position: int  # 0: the dealer's left
    points: int
    true_prophet: bool
    overthrown: bool
    plays_to_office: int | None  # a true prophet's judged turns before its line


@dataclass(frozen=True)
class RoundOutcome:
    tier: str
    index: int
    seed: str
    rule: str  # the library rule's id
    end_reason: str
    turns: int  # judged turns
    dealer_points: int
    seats: tuple[SeatOutcome, ...]  # by position

    def of_kind(self, kind: str) -> list[SeatOutcome]:
        return [s for s in self.seats if s.kind == kind]


def plays_before_line(r: Round, seat: int) -> int | None:
    """OR39: the judged turns before the prophet line of ``seat`` (its declaring turn
    included) if it is the prophet in office at the end of the round (every later call of
    its was approved), else None. A line drawn with a turn shares its log entry (its
    ``seq``); one drawn after (E39's post_play, E18) has a later one."""
    if r.prophet != seat:
        return None
    line = r.lines[-1]
    return sum(1 for t in r.turns if t.seq <= line.seq)


def outcome_of(
    r: Round, tier_name: str, index: int, seed: str, lineup: Sequence[str]
) -> RoundOutcome:
    """The figures of a scored round whose scientists (from the dealer's left) are
    ``lineup``."""
    assert r.score is not None
    assert r.rule is not None
    assert r.dealer is not None
    n = len(r.hands)
    seats = []
    for position, kind in enumerate(lineup):
        seat = (r.dealer + 1 + position) % n
        seats.append(
            SeatOutcome(
                kind=kind,
                seat=seat,
                position=position,
                points=r.score.scores[seat],
                true_prophet=r.prophet == seat,
                overthrown=any(p.seat == seat and p.overthrown_seq is not None for p in r.lines),
                plays_to_office=plays_before_line(r, seat),
            )
        )
    return RoundOutcome(
        tier=tier_name,
        index=index,
        seed=seed,
        rule=r.rule.library_id or "?",
        end_reason=r.score.reason,
        turns=len(r.turns),
        dealer_points=r.score.scores[r.dealer],
        seats=tuple(seats),
    )


def play_game(config: ArenaConfig, tier_name: str, index: int) -> tuple[State, tuple[str, ...]]:
    """Round ``index`` of a tier played to its end by the bots (see the module): the final
    state (a one-round game, over) and the line-up from the dealer's left."""
    seed = game_seed(config.seed, tier_name, index)
    lineup = rotated(config.seats, index)
    n = len(lineup) + 1
    options = {
        "round_limit": 1,
        "difficulty": tier_name,
        "sanity_walks": config.sanity_walks,
        "bots": [True] * n,
    }
    state = new_game(n, "standard", seed, options)
    dealer = state.round.dealer
    assert dealer is not None
    bots: dict[int, Bot] = {dealer: dealer_bot}
    kinds: dict[int, str] = {dealer: "dealer"}
    for position, kind in enumerate(lineup):
        seat = (dealer + 1 + position) % n
        bots[seat], kinds[seat] = META.bots[kind], kind
    rngs = {seat: random.Random(f"{seed}/seat/{seat}") for seat in range(n)}
    while not is_over(state):
        actor = to_act(state)
        if actor is None:
            state = advance(state)
            continue
        try:
            state = apply(state, actor, bots[actor](view(state, actor), rngs[actor]))
        except (IllegalAction, ValueError, KeyError, TypeError) as exc:
            raise ArenaError(
                f"the {kinds[actor]} bot at seat {actor} failed in round {seed!r} "
                f"(phase {state.round.phase}): {exc!r}"
            ) from exc
    return state, lineup


def play_round(config: ArenaConfig, tier_name: str, index: int) -> RoundOutcome:
    """Round ``index`` of a tier, played to its end; its figures."""
    state, lineup = play_game(config, tier_name, index)
    return outcome_of(state.rounds[0], tier_name, index, state.seed, lineup)


# --- the summary -------------------------------------------------------------------------


def _interval(i: Interval) -> JsonDict:
    return i.to_json()


def _kind_summary(outcomes: Sequence[RoundOutcome], kind: str) -> JsonDict:
    seat_rounds = [s for o in outcomes for s in o.of_kind(kind)]
    prophets = [s for s in seat_rounds if s.true_prophet]
    plays = [float(s.plays_to_office) for s in prophets if s.plays_to_office is not None]
    # Points: the round is the unit (the mean over the kind's seats in that round).
    per_round = [sum(s.points for s in o.of_kind(kind)) / len(o.of_kind(kind)) for o in outcomes]
    return {
        "seat_rounds": len(seat_rounds),
        "true_prophet": _interval(wilson(len(prophets), len(seat_rounds))),
        "plays_to_office": {
            **_interval(mean_interval(plays)),
            "median": _median(plays),
        },
        "overthrown": _interval(wilson(sum(s.overthrown for s in seat_rounds), len(seat_rounds))),
        "points": _interval(mean_interval(per_round)),
    }


def _median(values: Sequence[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def _share(seats: Sequence[SeatOutcome]) -> float:
    return sum(s.true_prophet for s in seats) / len(seats)


def _mean_points(seats: Sequence[SeatOutcome]) -> float:
    return sum(s.points for s in seats) / len(seats)


def verdict(i: Interval) -> str:
    """Where a difference's interval lies: "above zero", "below zero", "includes zero"."""
    if i.low is None or i.high is None:
        return "no interval"
    if i.low > 0:
        return "above zero"
    if i.high < 0:
        return "below zero"
    return "includes zero"


def compare(outcomes: Sequence[RoundOutcome], a: str, b: str) -> JsonDict:
    """``a`` minus ``b``, paired within each round (same seed, same rule and deal): the
    difference of their mean points and of their true-prophet shares in that round, with
    Student-t intervals over the rounds."""
    points = [_mean_points(o.of_kind(a)) - _mean_points(o.of_kind(b)) for o in outcomes]
    prophets = [_share(o.of_kind(a)) - _share(o.of_kind(b)) for o in outcomes]
    p, q = mean_interval(points), mean_interval(prophets)
    return {
        "a": a,
        "b": b,
        "points": {**_interval(p), "above_zero": p.above_zero(), "verdict": verdict(p)},
        "true_prophet": {**_interval(q), "above_zero": q.above_zero(), "verdict": verdict(q)},
    }


def _group(outcomes: Sequence[RoundOutcome], config: ArenaConfig) -> JsonDict:
    kinds = list(dict.fromkeys(config.seats))
    out: JsonDict = {
        "rounds": len(outcomes),
        "rules": dict(sorted(Counter(o.rule for o in outcomes).items())),
        "end_reasons": dict(sorted(Counter(o.end_reason for o in outcomes).items())),
        "turns": _interval(mean_interval([float(o.turns) for o in outcomes])),
        "dealer_points": _interval(mean_interval([float(o.dealer_points) for o in outcomes])),
        "bots": {kind: _kind_summary(outcomes, kind) for kind in kinds},
    }
    if config.compare is not None:
        out["compare"] = compare(outcomes, *config.compare)
    return out


def summarise(config: ArenaConfig, outcomes: Sequence[RoundOutcome]) -> JsonDict:
    """The report (JSON-able): per tier and, with several tiers, over all of them."""
    by_tier: Mapping[str, list[RoundOutcome]] = {t: [] for t in config.tiers}
    for o in outcomes:
        by_tier[o.tier].append(o)
    report: JsonDict = {
        "game": "eleusis",
        "seats": list(config.seats),
        "players": len(config.seats) + 1,
        "variant": "standard",
        "seed": config.seed,
        "rounds_per_tier": config.rounds,
        "sanity_walks": config.sanity_walks,
        "compare": list(config.compare) if config.compare else None,
        "intervals": {
            "confidence": 0.95,
            "shares": "Wilson score interval over seat-rounds",
            "means": "Student-t interval over rounds (points: the kind's mean in a round; "
            "plays to office: over the true-prophet seat-rounds)",
            "compare": "Student-t interval of the per-round paired differences",
        },
        "tiers": {
            t: {"grades": list(TIERS[t]), "library": [e.id for e in tier(t)], **_group(os, config)}
            for t, os in by_tier.items()
        },
    }
    if len(config.tiers) > 1:
        report["all"] = _group(outcomes, config)
    return report


# --- the table -----------------------------------------------------------------------------


def _pct(i: JsonDict) -> str:
    if i["estimate"] is None:
        return "-"
    return f"{i['estimate']:.1%} [{i['low']:.1%}, {i['high']:.1%}]"


def _num(i: JsonDict, signed: bool = False, scale: float = 1.0) -> str:
    if i["estimate"] is None:
        return "-"
    fmt = "+.2f" if signed else ".2f"
    text = format(i["estimate"] * scale, fmt)
    if i["low"] is None:
        return text
    return f"{text} [{i['low'] * scale:{fmt}}, {i['high'] * scale:{fmt}}]"


def _group_lines(title: str, g: JsonDict) -> list[str]:
    rules = ", ".join(f"{rule} x{count}" for rule, count in g["rules"].items())
    reasons = ", ".join(f"{r} {c}" for r, c in g["end_reasons"].items())
    lines = [
        f"{title}: {g['rounds']} rounds; rules {rules}",
        f"  end: {reasons}; judged turns per round {_num(g['turns'])}; "
        f"dealer points {_num(g['dealer_points'])}",
        f"  {'bot':<10} {'seat-rounds':>11}  {'true prophet':<24} {'plays to office':<30} "
        f"{'overthrown':<24} {'points/round':<22}",
    ]
    for kind, b in g["bots"].items():
        plays = b["plays_to_office"]
        lines.append(
            f"  {kind:<10} {b['seat_rounds']:>11}  {_pct(b['true_prophet']):<24} "
            f"{_num(plays) + ' (n ' + str(plays['n']) + ')':<30} "
            f"{_pct(b['overthrown']):<24} {_num(b['points']):<22}"
        )
    c = g.get("compare")
    if c is not None:
        lines.append(
            f"  {c['a']} - {c['b']}: points/round {_num(c['points'], signed=True)} "
            f"({c['points']['verdict']}); true-prophet share "
            f"{_num(c['true_prophet'], signed=True, scale=100)} percentage points "
            f"({c['true_prophet']['verdict']})"
        )
    return lines


def format_report(report: JsonDict) -> str:
    """The report as a readable table (estimates with their 95% intervals in brackets)."""
    head = (
        f"New Eleusis arena: {report['players']} seats (dealer bot + "
        f"{', '.join(report['seats'])} rotated), seed {report['seed']!r}, "
        f"{report['rounds_per_tier']} rounds per tier, sanity walks {report['sanity_walks']}"
    )
    if "wall_seconds" in report:
        head += f", {report['wall_seconds']} s wall"
    lines = [
        head,
        "95% intervals in brackets: shares Wilson (seat-rounds), means Student-t (rounds).",
        "",
    ]
    for name, g in report["tiers"].items():
        grades = "+".join(str(x) for x in g["grades"])
        lines += _group_lines(f"tier {name} (grade {grades})", g)
        lines.append("")
    if "all" in report:
        lines += _group_lines("all tiers", report["all"])
    return "\n".join(line.rstrip() for line in lines).rstrip()
