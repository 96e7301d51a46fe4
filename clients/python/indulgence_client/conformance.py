"""Bot conformance: run a bot through scripted situations against a server and report.

    python -m indulgence_client.conformance --server http://127.0.0.1:8000 --token $TOKEN \\
        -- python examples/bots/random_bot.py --server {server} --token {token} --game {game}

For each check the tool creates an unrated sandbox game of ``--game-type`` (Indulgence by
default; ``--game-type eleusis`` for New Eleusis, with ``--option hand_size=6`` and the
like; the bot's account at seat 0, built-in bots elsewhere), starts the bot with
``{server}`` pointing at a proxy the tool controls (:mod:`indulgence_client.proxy`),
``{token}`` and ``{game}`` filled in (a bot without ``{game}`` must find the game itself,
e.g. from the account stream), watches what it does and stops it. Checks:

* ``plays``: the bot makes moves in the game.
* ``illegal_action``: its action is answered ``400 illegal_action``; it must send a
  different, legal action (resending the refused one is refused again).
* ``version_conflict``: the tool moves for the bot's seat just before the bot's action
  arrives; the server refuses it with ``409 version_conflict`` and the bot must fetch the
  game and move again (a bot that sends no ``version`` fails: it would act on stale views).
* ``dropped_stream``: after the bot's first move the tool resets the TCP connections of its
  open streams (events since undelivered); the bot must reconnect (Last-Event-ID
  recommended) and move again. A polling bot has an action's answer cut instead and must
  carry on (retrying with the same Idempotency-Key, or fetching the game).
* ``near_timeout``: a game with a short turn time (``--turn-timeout``, the server's minimum
  60 s by default): each of the bot's first moves must come within ``--move-budget``
  seconds of its turn starting (server clock) and well before the deadline.

Exit status 0 when every check passed, 1 otherwise; one ``PASS``/``FAIL`` line per check.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from indulgence_client.client import Client
from indulgence_client.errors import ApiError, TransportError
from indulgence_client.proxy import Plan, Proxy, Record

CHECKS = ("plays", "illegal_action", "version_conflict", "dropped_stream", "near_timeout")
BotCallable = Callable[[str, str, int], Any]
Judge = Callable[..., "CheckResult | None"]


@dataclass
class CheckResult:
    name: str
    passed: bool
    reason: str

    def line(self) -> str:
        return f"{'PASS' if self.passed else 'FAIL'} {self.name}: {self.reason}"


@dataclass
class Settings:
    seed: str = "conformance"
    players: int = 3
    opponents: str = "random"
    game_type: str = "indulgence"
    options: dict[str, Any] | None = None
    check_timeout: float = 30.0
    moves: int = 3  # plays / near_timeout: moves to watch
    turn_timeout: int = 60
    move_budget: float = 10.0
    margin: float = 5.0  # near_timeout: seconds that must be left before the deadline


class BotProcess:
    """The bot under test: a command line (placeholders filled) or a Python callable
    ``bot(server, token, game_id)`` run in a child process, so that it can be stopped."""

    def __init__(self, bot: Sequence[str] | BotCallable, server: str, token: str, game: int):
        self._log = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed in stop())
            "w+", prefix="bot-", suffix=".log", delete=False
        )
        self._process: subprocess.Popen[str] | None = None
        self._child: Any = None
        if callable(bot):
            context = multiprocessing.get_context("spawn")
            self._child = context.Process(target=bot, args=(server, token, game), daemon=True)
            self._child.start()
        else:
            values = {"server": server, "token": token, "game": str(game)}
            argv = [part.format(**values) for part in bot]
            env = {**os.environ, "INDULGENCE_SERVER": server, "INDULGENCE_TOKEN": token}
            self._process = subprocess.Popen(  # noqa: S603 (the bot author's own command)
                argv, stdout=self._log, stderr=subprocess.STDOUT, text=True, env=env
            )

    def exited(self) -> int | None:
        if self._process is not None:
            return self._process.poll()
        return None if self._child.is_alive() else int(self._child.exitcode or 0)

    def stop(self) -> str:
        """Stop the bot; returns the tail of its output."""
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        if self._child is not None and self._child.is_alive():
            self._child.terminate()
            self._child.join(5)
        self._log.close()
        text = Path(self._log.name).read_text(errors="replace")
        Path(self._log.name).unlink(missing_ok=True)
        return " | ".join(text.strip().splitlines()[-3:])


def _moves(records: list[Record], game: int, after: float | None = None) -> list[Record]:
    return [
        r
        for r in records
        if r.kind == "action"
        and r.game == game
        and r.status == 200
        and (after is None or r.at > after)
    ]


class Runner:
    def __init__(
        self,
        server: str,
        token: str,
        bot: Sequence[str] | BotCallable,
        settings: Settings | None = None,
        client: Client | None = None,
    ) -> None:
        self.server = server
        self.token = token
        self.bot = bot
        self.settings = settings or Settings()
        self.client = client or Client(server, token)

    def run(self, checks: Sequence[str] = CHECKS) -> list[CheckResult]:
        results = []
        for name in checks:
            results.append(self.check(name))
        return results

    def check(self, name: str) -> CheckResult:
        kinds = {
            "plays": "plain",
            "illegal_action": "illegal",
            "version_conflict": "conflict",
            "dropped_stream": "drop",
            "near_timeout": "timing",
        }
        if name not in kinds:
            raise ValueError(f"unknown check {name!r}; choose from {', '.join(CHECKS)}")
        s = self.settings
        view = self.client.create_sandbox(
            seed=f"{s.seed}-{name}",
            player_count=s.players,
            game_type=s.game_type,
            bot=s.opponents,
            turn_timeout_seconds=s.turn_timeout if name == "near_timeout" else None,
            options=s.options,
        )
        game = int(view["id"])
        try:
            with Proxy(self.server) as proxy:
                plan = Plan(kind=kinds[name], game=game)
                proxy.set_plan(plan)
                bot = BotProcess(self.bot, proxy.url, self.token, game)
                try:
                    verdict = self._watch(name, proxy, plan, bot, game)
                finally:
                    output = bot.stop()
        finally:
            self._abort(game)
        if not verdict.passed and output:
            verdict.reason += f" (bot output: {output})"
        return verdict

    def _watch(
        self, name: str, proxy: Proxy, plan: Plan, bot: BotProcess, game: int
    ) -> CheckResult:
        deadline = time.monotonic() + self.settings.check_timeout
        while True:
            records = proxy.snapshot()
            judge: Judge = getattr(self, f"_judge_{name}")
            verdict = judge(records, plan, game, final=False)
            if verdict is not None:
                return verdict
            over = self._game_over(game)
            exited = bot.exited()
            if time.monotonic() > deadline or exited is not None or over:
                time.sleep(0.2)  # let the proxy finish recording the last exchange
                verdict = judge(proxy.snapshot(), plan, game, final=True)
                assert verdict is not None
                if exited is not None and not verdict.passed:
                    verdict.reason += f"; the bot exited with status {exited}"
                elif over and not verdict.passed:
                    verdict.reason += "; the game ended first"
                elif not verdict.passed:
                    verdict.reason += f" within {self.settings.check_timeout:g} s"
                return verdict
            time.sleep(0.1)

    def _abort(self, game: int) -> None:
        """The check's sandbox ends with it (void), so that no half-played game is left
        behind. A game that ended by itself, or a server without the abort endpoint, is
        left as it is."""
        with contextlib.suppress(ApiError, TransportError):
            if self.client.game(game)["status"] in ("open", "in_progress"):
                self.client.abort(game)

    def _game_over(self, game: int) -> bool:
        return self.client.game(game)["status"] in ("finished", "void")

    # --- judges: None while undecided; with final=True always a result -------------------

    def _judge_plays(
        self, records: list[Record], plan: Plan, game: int, final: bool
    ) -> CheckResult | None:
        moves = _moves(records, game)
        if len(moves) >= self.settings.moves:
            return CheckResult("plays", True, f"made {len(moves)} moves")
        if not final:
            return None
        refused = [r for r in records if r.kind == "action" and r.game == game]
        return CheckResult(
            "plays",
            False,
            f"made {len(moves)} of {self.settings.moves} moves ({len(refused)} attempts)",
        )

    def _judge_illegal_action(
        self, records: list[Record], plan: Plan, game: int, final: bool
    ) -> CheckResult | None:
        if plan.injected_at is not None:
            repeats = sum(1 for r in records if r.injected == "illegal") - 1
            after = _moves(records, game, plan.injected_at)
            if after:
                return CheckResult(
                    "illegal_action",
                    True,
                    f"after 400 illegal_action it sent another legal action "
                    f"(resent the refused one {repeats} times)",
                )
            if final:
                return CheckResult(
                    "illegal_action",
                    False,
                    f"after 400 illegal_action it never made a legal move "
                    f"(resent the refused action {repeats} times)",
                )
            return None
        if not final:
            return None
        attempts = [r for r in records if r.kind == "action" and r.game == game]
        return CheckResult(
            "illegal_action",
            False,
            f"no action with a choice to refuse was sent ({len(attempts)} attempts)",
        )

    def _judge_version_conflict(
        self, records: list[Record], plan: Plan, game: int, final: bool
    ) -> CheckResult | None:
        struck = [r for r in records if r.injected == "conflict"]
        if struck:
            first = struck[0]
            if first.version is None:
                return CheckResult(
                    "version_conflict",
                    False,
                    "the bot sends actions without 'version': a decision made on a stale "
                    "view would be applied",
                )
            if first.status not in (409, None):
                return CheckResult(
                    "version_conflict",
                    False,
                    f"expected the server's 409 version_conflict, got {first.status}",
                )
            if first.status is None and not final:
                return None
            if _moves(records, game, first.at):
                return CheckResult(
                    "version_conflict",
                    True,
                    f"after 409 version_conflict ({plan.detail}) it fetched the game and "
                    "moved again",
                )
            if final:
                return CheckResult(
                    "version_conflict", False, "after 409 version_conflict it never moved again"
                )
            return None
        if not final:
            return None
        return CheckResult("version_conflict", False, "the bot never sent an action")

    def _judge_dropped_stream(
        self, records: list[Record], plan: Plan, game: int, final: bool
    ) -> CheckResult | None:
        if plan.injected_at is None:
            if not final:
                return None
            return CheckResult("dropped_stream", False, "the bot made no first move")
        after = _moves(records, game, plan.injected_at)
        if plan.dropped_streams:
            reopened = [r for r in records if r.kind == "stream" and r.at > plan.injected_at]
            resumed = [r for r in reopened if r.last_event_id or "last_event_id=" in r.path]
            if reopened and after:
                how = (
                    "with Last-Event-ID"
                    if resumed
                    else "WITHOUT Last-Event-ID (events may be lost)"
                )
                return CheckResult(
                    "dropped_stream",
                    True,
                    f"{plan.dropped_streams} stream(s) cut; it reconnected {how} and moved again",
                )
            if not final:
                return None
            if not reopened:
                return CheckResult(
                    "dropped_stream",
                    False,
                    f"{plan.dropped_streams} stream(s) cut; it never reconnected"
                    + (" (it moved again by other means)" if after else " nor moved again"),
                )
            return CheckResult(
                "dropped_stream", False, "it reconnected its stream but never moved again"
            )
        if after:
            return CheckResult(
                "dropped_stream",
                True,
                f"no stream was open, so an answer was cut ({plan.detail}); it carried on",
            )
        if not final:
            return None
        return CheckResult(
            "dropped_stream",
            False,
            f"no stream was open, so an answer was cut ({plan.detail}); it never moved again",
        )

    def _judge_near_timeout(
        self, records: list[Record], plan: Plan, game: int, final: bool
    ) -> CheckResult | None:
        s = self.settings
        timed = [r for r in _moves(records, game) if r.elapsed is not None]
        late = [
            r for r in timed if (r.elapsed or 0) > s.move_budget or (r.remaining or 0) < s.margin
        ]
        if late:
            worst = max(late, key=lambda r: r.elapsed or 0)
            return CheckResult(
                "near_timeout",
                False,
                f"a move came {worst.elapsed:.1f} s into its turn ({worst.remaining:.1f} s "
                f"left of {s.turn_timeout} s; budget {s.move_budget:g} s)",
            )
        autopilot = self._autopilot_moves(game)
        if autopilot:
            return CheckResult(
                "near_timeout", False, f"the autopilot moved for the bot {autopilot} times"
            )
        if len(timed) >= s.moves:
            slowest = max(r.elapsed or 0 for r in timed)
            return CheckResult(
                "near_timeout",
                True,
                f"{len(timed)} moves, the slowest {slowest:.1f} s into a {s.turn_timeout} s turn "
                f"(budget {s.move_budget:g} s)",
            )
        if not final:
            return None
        return CheckResult(
            "near_timeout", False, f"made {len(timed)} of {s.moves} moves in a short-timeout game"
        )

    def _autopilot_moves(self, game: int) -> int:
        log = self.client.moves(game)["moves"]
        return sum(1 for m in log if m["seat"] == 0 and m["actor"] == "autopilot")


def _interrupt(signum: int, frame: Any) -> None:
    """SIGTERM: stop as after Ctrl-C (the running check's bot is stopped and its sandbox
    aborted on the way out)."""
    raise KeyboardInterrupt


def load_callable(spec: str) -> BotCallable:
    """``module:function`` -> the function (the bot as a Python callable)."""
    module, _, name = spec.partition(":")
    function = getattr(importlib.import_module(module), name)
    if not callable(function):
        raise TypeError(f"{spec} is not callable")
    return function  # type: ignore[no-any-return]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m indulgence_client.conformance",
        description="Run a bot through scripted situations and report PASS/FAIL per check.",
    )
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="The bot account's token.")
    parser.add_argument(
        "--checks", default=",".join(CHECKS), help=f"Comma-separated; default all: {CHECKS}."
    )
    parser.add_argument("--callable", help="The bot as module:function(server, token, game).")
    parser.add_argument("--seed", default="conformance")
    parser.add_argument(
        "--game-type",
        default="indulgence",
        help="The game to check the bot at (default indulgence).",
    )
    parser.add_argument(
        "--players", type=int, default=3, help="Seats of the check games (default 3)."
    )
    parser.add_argument(
        "--opponents",
        default="random",
        help="Built-in bots at the other seats (Indulgence: random, heuristic, ismcts; New "
        "Eleusis: random, novice, scientist).",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=JSON",
        help="A table option of the game (New Eleusis: hand_size=6, ...); repeatable.",
    )
    parser.add_argument("--check-timeout", type=float, default=30.0)
    parser.add_argument("--moves", type=int, default=3)
    parser.add_argument("--turn-timeout", type=int, default=60)
    parser.add_argument("--move-budget", type=float, default=10.0)
    parser.add_argument("--margin", type=float, default=5.0)
    parser.add_argument("command", nargs="*", help="The bot's command line (after --).")
    args = parser.parse_args(argv)
    if bool(args.callable) == bool(args.command):
        parser.error("give the bot as a command line after -- or as --callable, not both")
    bot: Sequence[str] | BotCallable = (
        load_callable(args.callable) if args.callable else list(args.command)
    )
    options = {key: json.loads(value) for key, _, value in (o.partition("=") for o in args.option)}
    settings = Settings(
        seed=args.seed,
        players=args.players,
        opponents=args.opponents,
        game_type=args.game_type,
        options=options or None,
        check_timeout=args.check_timeout,
        moves=args.moves,
        turn_timeout=args.turn_timeout,
        move_budget=args.move_budget,
        margin=args.margin,
    )
    checks = [c.strip() for c in args.checks.split(",") if c.strip()]
    unknown = [c for c in checks if c not in CHECKS]
    if unknown:
        parser.error(f"unknown check(s) {', '.join(unknown)}; choose from {', '.join(CHECKS)}")
    failed = 0
    done = 0
    previous = signal.signal(signal.SIGTERM, _interrupt)  # `kill` ends it as Ctrl-C does
    try:
        with Client(args.server, args.token) as client:
            runner = Runner(args.server, args.token, bot, settings, client)
            for name in checks:
                result = runner.check(name)
                failed += not result.passed
                done += 1
                print(result.line(), flush=True)
    except KeyboardInterrupt:
        print(f"interrupted after {done} of {len(checks)} checks", file=sys.stderr, flush=True)
        return 130
    except (ApiError, TransportError) as error:
        # The server refused or could not be reached (a wrong --server or --token, ...):
        # one line, not a traceback.
        print(f"error: {error}", file=sys.stderr, flush=True)
        return 2
    finally:
        signal.signal(signal.SIGTERM, previous)
    print(f"{len(checks) - failed} of {len(checks)} checks passed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
