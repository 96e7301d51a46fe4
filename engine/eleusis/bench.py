"""Measures of the ERL evaluator, run by ``python -m engine.bench --game eleusis``.

Pure: the caller passes the clock (the command-line entry point, engine/bench.py, owns
time and printing). For every library rule (NE-25): a 300-card main line is grown from
the rule's starters with right faces drawn from a seeded ``random.Random``, then single
judgements (``Rule.judge``) of all 52 faces after it are timed, and the same as one
``right_faces`` call (52 judgements sharing the card-independent ``let``s).

Whole rounds: one-round games of 5 seats with the random bot at every seat (the dealer's
rule a random library pick), new seeds one after another, rounds/s with their judged
turns and actions. Bot decisions: every bot kind of ``META.bots`` timed on the same
seeded sample of views on which a scientist acted in random rounds (the dealer bot on
dealers' views): median and maximum seconds per decision.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from engine.core import Bot, JsonDict
from engine.eleusis import META, advance, apply, is_over, new_game, to_act, view
from engine.eleusis.bots import random_bot
from engine.eleusis.erl import Line, Rule, compile_rule
from engine.eleusis.faces import FACES
from engine.eleusis.library import library, library_rule
from engine.eleusis.sanity import SanitySettings, sanity_check
from engine.eleusis.setup import pick_library, sanity_of
from engine.eleusis.state import State

Clock = Callable[[], float]
LINE_LENGTH = 300

BUDGET_RULE = (
    "accept ("
    + " + ".join(["count(c.rank + card.rank > prev.rank + len)"] * 6)
    + ") mod 2 == card.rank mod 2"
)
"""Six aggregates recounted for every judgement, just under the cost budget (OR05); its
main line is random faces (growing a right one would take minutes)."""


@dataclass
class Figure:
    name: str
    judge_per_s: float  # single judgements per second
    batch_per_s: float  # judgements per second through right_faces
    cost: int  # the cost model's steps (OR05)
    right_share: float  # share of right faces after the main line


def main_line(rule: Rule, length: int, rng: random.Random, right: bool = True) -> Line:
    """A main line of ``length`` cards: starters by the start condition, then right faces
    (or any faces if not ``right``)."""
    if not right:
        return rule.line_of(rng.choice(FACES) for _ in range(length))
    line = rule.empty()
    while len(line.faces) < rule.starters_needed:
        line = rule.extend(line, rng.choice([f for f in FACES if rule.may_start(line, f)]))
    while len(line.faces) < length:
        line = rule.extend(line, rng.choice(rule.right_faces(line)))
    return line


def measure(
    name: str, rule: Rule, clock: Clock, seconds: float, seed: int = 1, right: bool = True
) -> Figure:
    line = main_line(rule, LINE_LENGTH, random.Random(seed), right)
    judge, right_faces = rule.judge, rule.right_faces
    done, start = 0, clock()
    while True:
        for f in FACES:
            judge(line, f)
        done += len(FACES)
        elapsed = clock() - start
        if elapsed >= seconds:
            break
    single = done / elapsed
    done, start = 0, clock()
    while True:
        right_faces(line)
        done += len(FACES)
        elapsed = clock() - start
        if elapsed >= seconds:
            break
    return Figure(name, single, done / elapsed, rule.cost, len(right_faces(line)) / 52)


def library_figures(clock: Clock, seconds: float) -> Iterator[Figure]:
    for entry in library():
        yield measure(f"{entry.id} {entry.key}", entry.rule(), clock, seconds)
    yield measure("budget (OR05)", compile_rule(BUDGET_RULE), clock, seconds, right=False)


@dataclass
class SanityFigure:
    name: str
    verdict: str
    listed: str  # the verdict NE-25.2 lists
    mean_share: float
    exhausted_at: int | None
    walks: int
    seconds: float


def sanity_figures(clock: Clock, walks: int) -> Iterator[SanityFigure]:
    """The full check of NE-22 (``walks`` x 100 cards, library probes included) on every
    library rule and the budget rule, timed."""
    rules = [(f"{e.id} {e.key}", e.rule(), e.verdict) for e in library()]
    rules.append(("budget (OR05)", compile_rule(BUDGET_RULE), "-"))
    for name, rule, listed in rules:
        start = clock()
        report = sanity_check(rule, SanitySettings(walks=walks))
        yield SanityFigure(
            name,
            report.verdict,
            listed,
            report.mean_share,
            report.exhausted_at,
            report.walks,
            clock() - start,
        )


# --- whole rounds and bot decisions --------------------------------------------------------

ROUND_PLAYERS = 5
ROUND_WALKS = 20
"""The table's sanity walks in the timed rounds. The check is measured on its own (the
sanity figures); :func:`rounds_figure` runs it untimed into the game's cache."""
SCIENTIST_PHASES = ("turn", "prophet_call", "post_play")


def _random_game(seed: str) -> State:
    return new_game(
        ROUND_PLAYERS,
        "standard",
        seed,
        {"round_limit": 1, "sanity_walks": ROUND_WALKS, "bots": [True] * ROUND_PLAYERS},
    )


def random_round(seed: str, on_view: Callable[[JsonDict], None] | None = None) -> tuple[State, int]:
    """One whole round (a one-round game) of random bots at every seat, the dealer too, from
    ``seed``: the final state and the number of actions. ``on_view`` sees every view a bot
    acted on."""
    state = _random_game(seed)
    rngs = [random.Random(f"{seed}/seat/{s}") for s in range(ROUND_PLAYERS)]
    actions = 0
    while not is_over(state):
        seat = to_act(state)
        if seat is None:
            state = advance(state)
            continue
        v = view(state, seat)
        if on_view is not None:
            on_view(v)
        state = apply(state, seat, random_bot(v, rngs[seat]))
        actions += 1
    return state, actions


def round_rule(seed: str) -> str:
    """The source of the rule the random dealer will set in ``random_round(seed)`` (its
    first decision, from the same fresh rng; a pick by difficulty as OR20 draws it)."""
    state = _random_game(seed)
    dealer = to_act(state)
    assert dealer is not None
    action = random_bot(view(state, dealer), random.Random(f"{seed}/seat/{dealer}"))
    if "id" in action:
        return library_rule(action["id"]).source
    return pick_library(state.round.seed, action["difficulty"]).source


@dataclass
class RoundsFigure:
    rounds: int
    turns: int  # judged turns
    actions: int  # bot actions applied (the dealer's rule, plays, calls, ...)
    seconds: float


def rounds_figure(clock: Clock, seconds: float, seed: str = "bench-rounds") -> RoundsFigure:
    """Whole random rounds (new seeds ``seed/0``, ``seed/1``, ...) for about ``seconds``
    of timed play. Before each round, untimed, its rule's sanity check is run into the
    game's cache (``setup.sanity_of``), so the timed round does not include NE-22."""
    fig = RoundsFigure(0, 0, 0, 0.0)
    while fig.seconds < seconds:
        round_seed_text = f"{seed}/{fig.rounds}"
        sanity_of(round_rule(round_seed_text), ROUND_WALKS)
        start = clock()
        state, actions = random_round(round_seed_text)
        fig.seconds += clock() - start
        fig.rounds += 1
        fig.turns += len(state.rounds[0].turns)
        fig.actions += actions
    return fig


def decision_views(rounds: int, count: int, seed: str = "bench-views") -> list[JsonDict]:
    """``count`` views (a seeded sample) on which a scientist acted in ``rounds`` random
    rounds: turns, prophet calls, post-play declarations."""
    views: list[JsonDict] = []

    def keep(v: JsonDict) -> None:
        if v["phase"] in SCIENTIST_PHASES and v["round"]["dealer"] != v["seat"]:
            views.append(v)

    for i in range(rounds):
        random_round(f"{seed}/{i}", keep)
    rng = random.Random(seed)
    return rng.sample(views, min(count, len(views)))


def dealer_views(count: int, seed: str = "bench-dealer") -> list[JsonDict]:
    """``count`` views of a dealer choosing the rule (one per new game)."""
    out = []
    for i in range(count):
        state = _random_game(f"{seed}/{i}")
        dealer = to_act(state)
        assert dealer is not None
        out.append(view(state, dealer))
    return out


@dataclass
class DecisionFigure:
    kind: str
    views: int
    first: float  # seconds of the first call (caches and tables built then)
    median: float  # seconds, over the views after the first call
    max: float
    mean: float


def decision_figure(kind: str, bot: Bot, views: list[JsonDict], clock: Clock) -> DecisionFigure:
    """Time ``bot`` once on every view (a fresh seeded rng each); the first call is
    reported on its own (a bot may build its tables then), the others give the median,
    maximum and mean."""
    times = []
    for i, v in enumerate(views):
        rng = random.Random(f"bench/{kind}/{i}")
        start = clock()
        bot(v, rng)
        times.append(clock() - start)
    rest = times[1:] or times
    return DecisionFigure(
        kind, len(views), times[0], statistics.median(rest), max(rest), statistics.fmean(rest)
    )


def decision_figures(
    clock: Clock, views: int = 200, rounds: int = 20, kinds: Sequence[str] | None = None
) -> Iterator[DecisionFigure]:
    """Every bot kind of ``META.bots`` (or ``kinds``) on the same seeded views: scientists'
    views for the scientists, dealers' views for the dealer bot."""
    sample = decision_views(rounds, views)
    deal = dealer_views(min(views, 50))
    for kind in kinds if kinds is not None else sorted(META.bots):
        bot = META.bots[kind]
        yield decision_figure(kind, bot, deal if kind == "dealer" else sample, clock)
