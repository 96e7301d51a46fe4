"""Both example bots, run as their documented one-line commands, finish games."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable

import pytest

from games.models import Game, GameStatus
from tests.bots_kit.conftest import ROOT

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_bot(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "examples" / "bots" / script), "--no-keepalive", *args],
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )


def test_the_engine_bot_creates_a_sandbox_and_plays_it_to_the_end(
    server: str, bot_token: Callable[[str], str]
) -> None:
    token = bot_token("examplebot")
    seed = "example-engine"
    done = run_bot(
        "engine_bot.py", "--server", server, "--token", token, "--create-sandbox", "--seed", seed
    )
    assert done.returncode == 0, done.stderr
    game = Game.objects.get()
    assert game.status == GameStatus.FINISHED
    assert not game.rated
    lines = done.stdout.strip().splitlines()
    assert lines[0] == f"created sandbox game {game.pk} (seed {seed!r})"
    assert lines[-1].startswith(f"game {game.pk}: finished, winner ")
    humans = game.moves.filter(seat=0, actor_kind="human").count()
    assert humans > 0
    assert game.moves.filter(seat=0).exclude(actor_kind="human").count() == 0


def test_the_random_bot_plays_the_games_its_account_sits_at_via_the_account_stream(
    server: str, bot_token: Callable[[str], str]
) -> None:
    from indulgence_client import Client

    token = bot_token("listener")
    with Client(server, token) as client:
        game_id = client.create_sandbox(seed="example-account", player_count=3)["id"]
    done = run_bot("random_bot.py", "--server", server, "--token", token, "--max-games", "1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().startswith(f"game {game_id}: finished")
    assert Game.objects.get(pk=game_id).status == GameStatus.FINISHED
