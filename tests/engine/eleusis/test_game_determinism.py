"""Same seed and same actions, same game (architecture.md, NE-20.3): in this process, and
in other processes whatever Python's hash seed."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import eleusis as game
from engine.eleusis import table
from engine.eleusis.library import library_rule

from .tables import FAST, play_out, replay

ROOT = Path(__file__).resolve().parents[3]
OPTIONS = {**FAST, "hand_size": 6, "round_limit": 2}

SCRIPT = """
import hashlib, json, random
import pytest

from engine import eleusis as game
from engine.eleusis import table
from engine.eleusis.library import library_rule
from tests.engine.eleusis.tables import play_out
state = game.new_game(5, "standard", "determinism", %r)
state, _ = play_out(state, ["random", "novice"] * 2 + ["random"], random.Random(9))
text = json.dumps(game.full_record(state), sort_keys=True)
print(hashlib.sha256(text.encode()).hexdigest())
"""


def _digest(state: game.State) -> str:
    return hashlib.sha256(json.dumps(game.full_record(state), sort_keys=True).encode()).hexdigest()


def test_the_same_seed_and_actions_give_the_same_game() -> None:
    start = game.new_game(5, "standard", "determinism", OPTIONS)
    state, moves = play_out(start, ["random", "novice"] * 2 + ["random"], random.Random(9))
    assert replay(5, "standard", "determinism", OPTIONS, moves) == state
    again, _ = play_out(start, ["random", "novice"] * 2 + ["random"], random.Random(9))
    assert again == state


def test_the_same_game_in_other_processes_with_other_hash_seeds() -> None:
    start = game.new_game(5, "standard", "determinism", OPTIONS)
    state, _ = play_out(start, ["random", "novice"] * 2 + ["random"], random.Random(9))
    expected = _digest(state)
    for hash_seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT % (OPTIONS,)],
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        )
        assert done.stdout.strip() == expected


def test_the_main_line_cache_gives_the_lines_the_rule_computes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """table.line_of memoises lines and extends cached prefixes; evicting old entries
    changes nothing."""
    monkeypatch.setattr(table, "_LINE_CACHE", {})
    monkeypatch.setattr(table, "_LINE_CACHE_SIZE", 3)
    rule = library_rule("R45").rule()  # aggregates kept incrementally
    faces = tuple(random.Random(4).randrange(52) for _ in range(40))
    for n in [*range(1, 41), 5, 17, 40, 12]:
        assert table.line_of(rule.source, faces[:n]) == rule.line_of(faces[:n])
    assert len(table._LINE_CACHE) <= 3
