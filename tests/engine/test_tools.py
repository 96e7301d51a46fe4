"""The terminal tools: python -m engine.play and python -m engine.bench."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import bench, play

ROOT = Path(__file__).resolve().parents[2]


def _lines(*answers: str) -> Iterator[str]:
    yield from answers
    while True:
        yield ""  # end of input


def test_watching_a_game_prints_it_to_the_end() -> None:
    out = io.StringIO()
    status = play.run(
        players=4,
        variant="expert",
        seed="watch",
        seat=None,
        bot_seed="b",
        read_line=lambda: "",
        out=out,
    )
    text = out.getvalue()
    assert status == 0
    assert text.startswith("Indulgence, 4 players, expert, seed 'watch'")
    assert "trick 1:" in text
    assert "florins now:" in text
    assert "Game over (" in text


def test_playing_reads_numbered_choices_and_stops_at_end_of_input() -> None:
    answers = _lines("9999", "oops", "1", "1", "1")
    out = io.StringIO()
    status = play.run(
        players=3,
        variant="basic",
        seed="demo",
        seat=0,
        bot_seed="b",
        read_line=lambda: next(answers),
        out=out,
    )
    text = out.getvalue()
    assert status == 0
    assert "Your hand (seat 0):" in text
    assert "  1) " in text
    assert "Please answer with a number from 1 to" in text
    assert text.rstrip().endswith("End of input: leaving the game.")


def test_the_play_command_terminates_on_eof() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine.play", "--players", "4", "--seed", "eof", "--seat", "2"],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "End of input" in done.stdout


def test_a_bad_seat_is_a_usage_error() -> None:
    with pytest.raises(SystemExit):
        play.main(["--players", "3", "--seat", "3"])


def test_the_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--runs", "1", "--seconds", "0.02", "--games", "2"]) == 0
    text = capsys.readouterr().out
    assert "hands/s" in text
    assert "decisions/s" in text


def test_the_pax_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--game", "pax", "--runs", "1", "--seconds", "0.02", "--games", "1"]
    assert bench.main([*args, "--stall", "2", "--check", "1", "--cap", "3"]) == 0
    text = capsys.readouterr().out
    assert "validated apply" in text
    assert "games/s" in text
    assert "stalled games (15.5.3): " in text
    assert "every 16.3 invariant held" in text


def test_p60_the_pax_invariant_run_covers_every_variant_and_counts_stalls(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 23: the 16.3 run iterates over META's variants and seat counts; with a cap
    of 2 rounds every game stalls (15.5.3, P-21, P-60: no final round can come so soon)
    unless a plot victory ends it first (an automa's, 14.9)."""
    from engine.pax import bench as pax_bench
    from engine.pax.game import PaxGame

    kinds = pax_bench.kinds()
    assert {v for _, v in kinds} == set(PaxGame.META.variants)
    assert {p for p, v in kinds if v == "standard"} == {2, 3, 4}
    fig = pax_bench.check_games(len(kinds), seed=2, round_cap=2)
    assert fig.problems == []
    assert fig.games == dict.fromkeys(kinds, 1)
    standard = [k for k in kinds if k[1] == "standard"]
    assert all(fig.stalled[k] == 1 for k in standard)
    won = sum(n for reason, n in fig.reasons.items() if reason != "faction_scoring")
    assert sum(fig.stalled.values()) + won == len(kinds)  # an automa's win is no stall
    assert all(r <= 2 for r in fig.rounds)
    assert all(fig.steps[k] > 10 for k in kinds)
    assert bench.main(["--game", "pax", "--runs", "0", "--check", "3", "--cap", "2"]) == 0
    text = capsys.readouterr().out
    assert "standard   3 seats:     1 games" in text
    assert "stalled (15.5.3, cap 2): 3/3" in text
    fig = pax_bench.check_games(2, seed=2, round_cap=2, first=1)
    assert fig.games == {kinds[1]: 1, kinds[2 % len(kinds)]: 1}
