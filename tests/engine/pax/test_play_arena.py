"""python -m engine.play pax (a game in the terminal, the map drawn in text) and python -m
engine.arena pax (seeded pairings with Wilson intervals, P-55), on tiny runs."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import arena, play
from engine.pax import arena as pax_arena
from engine.pax.game import PaxGame

ROOT = Path(__file__).resolve().parents[3]


def _answers(*lines: str, then: str = "") -> Iterator[str]:
    yield from lines
    while True:
        yield then


def _run(seat: int | None, bots: str, read: Iterator[str], cap: int = 2) -> str:
    out = io.StringIO()
    status = play.run_pax(
        players=2,
        variant="standard",
        seed="cli",
        seat=seat,
        bots=bots,
        bot_seed="b",
        round_cap=cap,
        read_line=lambda: next(read),
        out=out,
    )
    assert status == 0
    return out.getvalue()


def test_watching_heuristic_bots_play_a_game_to_the_end() -> None:
    text = _run(None, "heuristic", _answers())
    assert text.startswith("Pax Illuminaten, 2 players, standard, seed 'cli', bots: heuristic")
    assert "Round 1: seat " in text
    assert "Game over (" in text
    assert "Your choice" not in text


def test_a_human_seat_sees_the_map_and_answers_by_number() -> None:
    text = _run(0, "random", _answers("0", "many", then="1\n"))
    assert "r0 " in text
    assert "[    ??   ]" in text  # face-down map cards (2.3.6)
    assert "<seat 0>" in text
    assert "<seat 1>" in text  # the placards (2.4)
    assert "Your decision: action" in text
    assert "Please answer with a number from 1 to" in text
    assert "  1) " in text
    assert "Game over (" in text


def test_end_of_input_leaves_the_game() -> None:
    text = _run(0, "random", _answers())
    assert text.rstrip().endswith("End of input: leaving the game.")


def test_the_command_plays_through_stdin() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine.play",
            "pax",
            "--players",
            "2",
            "--seed",
            "stdin",
            "--bots",
            "random",
            "--round-cap",
            "1",
        ],
        input="1\n" * 400,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Your choice: " in proc.stdout
    assert "Game over (" in proc.stdout


def test_the_command_refuses_a_seat_off_the_table() -> None:
    with pytest.raises(SystemExit):
        play.main(["pax", "--players", "2", "--seat", "2"])


def test_the_arena_reports_win_rates_with_intervals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "pax.json"
    status = arena.main(
        [
            "pax",
            "--players",
            "2",
            "--seats",
            "heuristic,random",
            "--games",
            "2",
            "--round-cap",
            "3",
            "--seed",
            "tiny",
            "--json",
            str(path),
        ]
    )
    assert status == 0
    out = capsys.readouterr().out
    assert out.startswith("standard/2/heuristic,random: 2 games")
    assert "heuristic  wins " in out
    (summary,) = json.loads(path.read_text())
    assert summary["games"] == 2
    for kind in ("heuristic", "random"):
        b = summary["bots"][kind]
        assert b["seat_games"] == 2
        w = b["win_rate"]
        assert w["low"] <= w["estimate"] <= w["high"]
    assert summary["bots"]["heuristic"]["decisions_timed"] > 0
    assert (
        summary["bots"]["heuristic"]["seconds_max"]
        >= summary["bots"]["heuristic"]["seconds_median"]
    )


def test_arena_games_are_seeded_and_rotate_the_line_up() -> None:
    p = pax_arena.Pairing("standard", 2, ("heuristic", "random"))
    a = pax_arena.play_game(p, "seeded", 1, round_cap=2)
    b = pax_arena.play_game(p, "seeded", 1, round_cap=2)
    assert (a.kinds, a.winners, a.reason, a.rounds, a.decisions) == (
        b.kinds,
        b.winners,
        b.reason,
        b.rounds,
        b.decisions,
    )
    assert a.kinds == ("random", "heuristic")
    assert pax_arena.play_game(p, "seeded", 0, round_cap=1).kinds == ("heuristic", "random")


def test_the_suite_covers_every_automa_variant_the_engine_offers() -> None:
    variants = [p.variant for p in pax_arena.suite()]
    automa = [v for v in PaxGame.META.variants if v != "standard"]
    assert variants[5:] == [v for v in automa for _ in range(2)]
    for p in pax_arena.suite():
        assert pax_arena.pairing_problems(p) == []
        if p.variant != "standard":
            assert p.players == 2
            assert len(p.lineup) == 1  # seat 0 the bot, seat 1 the automa (R12)


def test_the_arena_refuses_bad_pairings() -> None:
    assert pax_arena.pairing_problems(pax_arena.Pairing("standard", 2, ("heuristic",)))
    assert pax_arena.pairing_problems(pax_arena.Pairing("standard", 2, ("nobody", "random")))
    assert pax_arena.pairing_problems(pax_arena.Pairing("automa-XX", 2, ("random",)))
    with pytest.raises(SystemExit):
        arena.main(["pax", "--players", "3", "--seats", "heuristic,random"])
