"""python -m engine.bench --game eleusis: whole random rounds and bots' decision times."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine import bench
from engine.core import JsonDict
from engine.eleusis import META
from engine.eleusis import bench as eleusis_bench
from engine.eleusis.setup import sanity_of


def _ticking(step: float = 1.0) -> Callable[[], float]:
    """A clock that moves ``step`` seconds every time it is read."""
    now = [0.0]

    def clock() -> float:
        now[0] += step
        return now[0]

    return clock


@pytest.mark.parametrize("seed", ["bench-test/0", "bench-test/1", "bench-test/2"])
def test_the_rule_of_a_random_round_is_known_before_it_is_played(seed: str) -> None:
    source = eleusis_bench.round_rule(seed)
    sanity_of(source, eleusis_bench.ROUND_WALKS)
    misses = sanity_of.cache_info().misses
    state, actions = eleusis_bench.random_round(seed)
    r = state.rounds[0]
    assert r.rule is not None
    assert r.rule.source == source
    assert sanity_of.cache_info().misses == misses  # the timed round ran no NE-22 check
    assert state.end is not None
    assert actions >= len(r.turns) + 1  # the dealer's rule, then at least one per turn


def test_rounds_are_counted_with_their_turns_and_actions() -> None:
    # Each round reads the clock twice, one tick apart: three rounds fill three seconds.
    fig = eleusis_bench.rounds_figure(_ticking(), 3.0, seed="bench-count")
    assert fig.rounds == 3
    assert fig.seconds == 3.0
    played = [eleusis_bench.random_round(f"bench-count/{i}") for i in range(3)]
    assert fig.turns == sum(len(state.rounds[0].turns) for state, _ in played)
    assert fig.actions == sum(actions for _, actions in played)


def test_a_decision_figure_keeps_the_first_call_apart() -> None:
    now = [0.0]
    durations = iter([5.0, 1.0, 3.0, 2.0])

    def clock() -> float:
        return now[0]

    def bot(view: JsonDict, rng: random.Random) -> JsonDict:
        now[0] += next(durations)
        return {}

    fig = eleusis_bench.decision_figure("slow", bot, [{}] * 4, clock)
    assert (fig.views, fig.first, fig.median, fig.max, fig.mean) == (4, 5.0, 2.0, 3.0, 2.0)


def test_every_bot_kind_is_timed_on_the_same_seeded_views() -> None:
    views = eleusis_bench.decision_views(rounds=2, count=12)
    assert views == eleusis_bench.decision_views(rounds=2, count=12)  # seeded
    assert len(views) == 12
    assert all(v["phase"] in ("turn", "prophet_call", "post_play") for v in views)
    assert all(v["seat"] != v["round"]["dealer"] for v in views)
    figures = list(eleusis_bench.decision_figures(_ticking(0.5), views=12, rounds=2))
    assert [f.kind for f in figures] == sorted(META.bots)
    for f in figures:
        assert f.views == 12  # the dealer bot on 12 dealers' views
        assert f.median == f.max == 0.5  # one tick per decision


def test_the_eleusis_benchmark_prints_rounds_and_decisions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["--game", "eleusis", "--parts", "rounds,decisions", "--seconds", "0.05"]
    assert bench.main([*args, "--views", "6", "--view-rounds", "2", "--clock", "cpu"]) == 0
    text = capsys.readouterr().out
    assert "whole random rounds (5 seats, random bots, seeded" in text
    assert "rounds/s" in text
    assert "judged turns/s" in text
    for kind in META.bots:
        assert any(line.startswith(f"{kind} ") for line in text.splitlines())
    assert "judge/s" not in text  # the judgements part was left out
    with pytest.raises(SystemExit):
        bench.main(["--game", "eleusis", "--parts", "rounds,nothing"])
