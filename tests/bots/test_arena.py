"""The arena: duplicate sets, the summary and the command line."""

from __future__ import annotations

import json
import pathlib

import pytest

from engine import arena


def _match(lineup: tuple[str, ...], variant: str = "basic") -> arena.Match:
    return arena.Match(len(lineup), variant, lineup, "arena-test", 4, None)


def test_a_duplicate_set_replays_the_same_deals_with_the_line_up_rotated() -> None:
    match = _match(("heuristic", "random", "random"))
    deals = []
    for rotation in range(3):
        lineup = [match.lineup[(seat + rotation) % 3] for seat in range(3)]
        state, tallies = arena.play_game(match, "arena-test-0", lineup, f"r{rotation}")
        deals.append(state.history[0].deal)
        assert tallies["heuristic"].seat_games == 1
        assert tallies["random"].seat_games == 2
    assert deals[0] == deals[1] == deals[2]


def test_summary_reports_every_figure_per_bot_and_per_pair() -> None:
    summary = arena.run(_match(("ismcts", "heuristic", "random", "random"), "expert"), sets=1)
    assert summary["games"] == 4
    assert set(summary["bots"]) == {"ismcts", "heuristic", "random"}
    ismcts = summary["bots"]["ismcts"]
    for key in (
        "mean_florins",
        "ci95",
        "win_rate",
        "sins",
        "sin_success_rate",
        "seconds_per_decision_median",
    ):
        assert key in ismcts
    assert ismcts["playouts_per_decision_median"] == 4
    assert {(p["a"], p["b"]) for p in summary["pairs"]} == {
        ("ismcts", "heuristic"),
        ("ismcts", "random"),
        ("heuristic", "random"),
    }
    # Money only changes hands: the seats' results sum to zero (unless someone went bankrupt,
    # when creditors are credited more than was paid).
    total = sum(b["mean_florins"] * b["seats"] for b in summary["bots"].values())
    assert total >= -1e-9
    text = arena.format_summary(summary)
    assert "ismcts - heuristic" in text
    assert "95% CI" in text


def test_mean_ci() -> None:
    mean, half = arena.mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert half == pytest.approx(3.182 * (5 / 3 / 4) ** 0.5)
    assert arena.t95(1000) == 1.96


def test_command_line(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "summary.json"
    code = arena.main(
        [
            "--games",
            "4",
            "--bots",
            "heuristic,random,random",
            "--seed",
            "cli",
            "--workers",
            "2",
            "--json",
            str(out),
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "heuristic - random" in printed
    summary = json.loads(out.read_text())
    assert summary["games"] == 6
    assert summary["sets"] == 2
    with pytest.raises(SystemExit):
        arena.main(["--bots", "heuristic,nobody,random"])
    with pytest.raises(SystemExit):
        arena.main(["--bots", "heuristic,random", "--players", "3"])


def test_an_arena_time_cap_brings_its_own_clock() -> None:
    # The engine has no clock: the arena (a command-line tool) passes one with the cap.
    capped = arena.make_bot("ismcts", arena.Match(3, "basic", ("ismcts",) * 3, "c", 50, 0.5))
    assert isinstance(capped, arena.IsmctsBot)
    assert capped.max_seconds == 0.5
    assert capped.clock is not None
    assert isinstance(capped.clock(), float)
    uncapped = arena.make_bot("ismcts", arena.Match(3, "basic", ("ismcts",) * 3, "c", 50, None))
    assert isinstance(uncapped, arena.IsmctsBot)
    assert uncapped.clock is None
