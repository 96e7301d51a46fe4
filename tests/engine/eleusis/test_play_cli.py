"""python -m engine.play eleusis: a round in the terminal against bots."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import eleusis, play

from .tables import FAST, play_out

ROOT = Path(__file__).resolve().parents[3]


def _answers(*lines: str) -> Iterator[str]:
    yield from lines
    while True:
        yield ""


def test_watching_bots_play_a_round_prints_it_to_the_end() -> None:
    out = io.StringIO()
    status = play.run_eleusis(
        players=4,
        seed="watch",
        seat=None,
        bots="novice",
        bot_seed="b",
        options={"hand_size": 5, "round_limit": 1, "sanity_walks": 5, "bots": [True] * 4},
        read_line=lambda: "",
        out=out,
    )
    text = out.getvalue()
    assert status == 0
    assert text.startswith("New Eleusis, 4 players, seed 'watch', bots: novice")
    assert "library rule" in text
    assert "Round 1 is over. The rule was (R" in text
    assert "Game over (round_limit)" in text


def test_a_human_seat_answers_by_number_or_command_and_refusals_are_explained() -> None:
    answers = _answers("99", "play ZZ.1", "1", "no play", "1", "1", "1", "1", "1", "1")
    out = io.StringIO()
    status = play.run_eleusis(
        players=4,
        seed="human",
        seat=2,
        bots="random",
        bot_seed="b",
        options={"hand_size": 5, "round_limit": 1, "sanity_walks": 5},
        read_line=lambda: next(answers),
        out=out,
    )
    text = out.getvalue()
    assert status == 0
    assert "Your hand (seat 2):" in text
    assert "Please answer 1 to" in text
    assert "Refused (card_not_in_hand): ZZ.1 is not a card of your hand." in text
    assert "  seat 2: " in text


def test_the_command_runs_and_stops_at_end_of_input() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine.play",
            "eleusis",
            "--players",
            "4",
            "--seat",
            "3",
            "--rounds",
            "1",
        ],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "End of input" in done.stdout or "Game over" in done.stdout


def test_bad_arguments_are_usage_errors() -> None:
    with pytest.raises(SystemExit):
        play.main(["eleusis", "--players", "4", "--seat", "4"])
    with pytest.raises(SystemExit):
        play.main(["eleusis", "--players", "4", "--rounds", "4"])


def test_the_verify_command_checks_an_exported_record(tmp_path: Path) -> None:
    state = eleusis.new_game(
        4, "standard", "cli-verify", {**FAST, "hand_size": 4, "round_limit": 1}
    )
    state, _ = play_out(state, ["random"] * 4, random.Random(0))
    record = eleusis.full_record(state)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    out = io.StringIO()
    assert play.verify_file(str(good), out) == 0
    assert out.getvalue().rstrip().endswith("The record verifies.")
    record["end"]["totals"][0] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    out = io.StringIO()
    assert play.verify_file(str(bad), out) == 1
    assert "PROBLEM: end.totals[0]" in out.getvalue()
    assert play.main(["eleusis", "--verify", str(good)]) == 0
