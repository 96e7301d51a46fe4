"""The conformance tool passes a good bot and reports broken ones as broken."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable

import pytest
from indulgence_client.conformance import main

from games.models import Game, GameStatus
from tests.bots_kit.conftest import ROOT

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

BROKEN = [sys.executable, str(ROOT / "tests" / "bots_kit" / "broken_bot.py")]


def conformance(server: str, token: str, *options: str) -> list[str]:
    return ["--server", server, "--token", token, *options]


def test_the_example_bot_passes_every_check(
    server: str,
    bot_token: Callable[[str], str],
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    good = [sys.executable, str(ROOT / "examples" / "bots" / "random_bot.py")]
    argv = conformance(
        server,
        bot_token("goodbot"),
        "--",
        *good,
        "--server",
        "{server}",
        "--token",
        "{token}",
        "--game",
        "{game}",
    )
    status = main(argv)
    out = capsys.readouterr().out
    assert status == 0, out
    lines = out.strip().splitlines()
    assert [line.split(":")[0] for line in lines[:-1]] == [
        "PASS plays",
        "PASS illegal_action",
        "PASS version_conflict",
        "PASS dropped_stream",
        "PASS near_timeout",
    ]
    assert "with Last-Event-ID" in out
    assert lines[-1] == "5 of 5 checks passed"
    # Issue 21, item 5: no litter, no tracebacks. Each check's sandbox was aborted when
    # the check ended, and nothing was logged as an error (asyncio used to log a traceback
    # for every stream the proxy closed).
    games = Game.objects.filter(created_by__username="goodbot")
    assert games.count() == 5
    assert set(games.values_list("status", flat=True)) == {GameStatus.VOID}
    assert all(g.sandbox for g in games)
    assert "Traceback" not in capsys.readouterr().err
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


def test_stopping_the_tool_stops_the_bot_aborts_the_game_and_prints_no_traceback(
    server: str, bot_token: Callable[[str], str]
) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "clients" / "python")}
    argv = [sys.executable, "-m", "indulgence_client.conformance"]
    argv += conformance(server, bot_token("idlebot"), "--check-timeout", "60", "--")
    argv += [sys.executable, "-c", "import time; time.sleep(120)"]  # a bot that never moves
    tool = subprocess.Popen(
        argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 30
        while not Game.objects.filter(created_by__username="idlebot").exists():
            assert time.monotonic() < deadline, "the tool created no game"
            time.sleep(0.2)
        time.sleep(1)  # the bot is running
        tool.send_signal(signal.SIGTERM)  # as `kill` does; Ctrl-C (SIGINT) is handled alike
        out, err = tool.communicate(timeout=30)
    finally:
        if tool.poll() is None:
            tool.kill()
    assert tool.returncode == 130, (out, err)
    assert err.strip() == "interrupted after 0 of 5 checks", err
    game = Game.objects.get(created_by__username="idlebot")
    assert game.status == GameStatus.VOID


def test_a_wrong_token_is_one_line_not_a_traceback(
    server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(conformance(server, "ind_not-a-token", "--", "true"))
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("error: ")
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("flaw", "checks", "expected"),
    [
        (
            "stubborn",
            "illegal_action,version_conflict",
            [
                "FAIL illegal_action: after 400 illegal_action it never made a legal move",
                "FAIL version_conflict: after 409 version_conflict it never moved again",
            ],
        ),
        (
            "no-reconnect",
            "dropped_stream",
            ["FAIL dropped_stream: 1 stream(s) cut; it never reconnected"],
        ),
        ("slow", "near_timeout", ["FAIL near_timeout: a move came "]),
    ],
)
def test_a_broken_bot_is_reported_broken(
    server: str,
    bot_token: Callable[[str], str],
    capsys: pytest.CaptureFixture[str],
    flaw: str,
    checks: str,
    expected: list[str],
) -> None:
    options = ["--checks", checks, "--check-timeout", "5", "--moves", "1", "--move-budget", "1"]
    argv = conformance(
        server,
        bot_token("brokenbot"),
        *options,
        "--",
        *BROKEN,
        flaw,
        "{server}",
        "{token}",
        "{game}",
    )
    status = main(argv)
    out = capsys.readouterr().out
    assert status == 1, out
    lines = out.strip().splitlines()
    assert len(lines) == len(expected) + 1
    for line, start in zip(lines, expected, strict=False):
        assert line.startswith(start), out
    assert lines[-1] == f"0 of {len(expected)} checks passed"


def test_the_example_bot_passes_the_checks_at_a_new_eleusis_table(
    server: str, bot_token: Callable[[str], str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The same tool and the same example bot at New Eleusis tables (issue 24): 4 seats,
    novice opponents, small hands; the tool's scripted refusals and conflicts pick only
    explicit legal actions (an entry with a "template" is a family, not an action)."""
    good = [sys.executable, str(ROOT / "examples" / "bots" / "random_bot.py")]
    argv = conformance(
        server,
        bot_token("eleusisbot"),
        "--game-type",
        "eleusis",
        "--players",
        "4",
        "--opponents",
        "novice",
        "--option",
        "hand_size=6",
        "--option",
        "sanity_walks=20",
        "--checks",
        "plays,illegal_action,version_conflict",
        "--",
        *good,
        "--server",
        "{server}",
        "--token",
        "{token}",
        "--game",
        "{game}",
    )
    status = main(argv)
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.strip().splitlines()[-1] == "3 of 3 checks passed"
