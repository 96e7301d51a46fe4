"""A bot's main loop, done once: wait for your turn, decide, act, recover from refusals.

A *decision function* takes a view (the dict ``GET /games/{id}/`` returns) and returns
one of its ``legal_actions``. :func:`play_turn` sends it with the view's version and
handles the refusals every bot meets:

* ``409 version_conflict`` / ``not_your_turn``: the game moved on (a timeout, a bot, a
  settlement): fetch the view and decide again;
* ``400 illegal_action``: never send the same action again for this view: decide again
  among the other legal actions (and fetch the view when none is left);
* ``429``: waited out by the client; network failures: retried with the same
  Idempotency-Key, so an action is applied once.

:func:`play_game` plays one game to its end, woken by the game's event stream (which
resumes with Last-Event-ID after a drop) or by polling; :func:`play_forever` plays every
game of the account as the account stream announces turns; :func:`main` is the command
line the example bots share.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from indulgence_client.client import Action, Client, View
from indulgence_client.errors import (
    GameNotActive,
    IllegalAction,
    NotYourTurn,
    VersionConflict,
)

logger = logging.getLogger("indulgence_client.bot")

Decide = Callable[[View], Action]
OVER = ("finished", "void")
TURN_EVENTS = ("your_turn", "reminder", "game_started", "seat_handed_to_bot")


def play_turn(client: Client, game_id: int, view: View, decide: Decide) -> View:
    """Act while it is our turn in ``view``; return the latest view we know."""
    refused: list[Action] = []
    refetches = 0
    while view["status"] == "in_progress" and view["legal_actions"]:
        candidates = [action for action in view["legal_actions"] if action not in refused]
        if not candidates:  # everything refused: our view must be stale
            refetches += 1
            if refetches > 3:
                raise RuntimeError(f"game {game_id}: every legal action was refused")
            view, refused = client.game(game_id), []
            continue
        action = decide({**view, "legal_actions": candidates})
        try:
            view = client.act(game_id, action, version=view["version"])
            refused = []
        except IllegalAction as exc:
            logger.warning("game %s: %s refused: %s", game_id, action, exc.detail)
            refused.append(action)
        except (VersionConflict, NotYourTurn) as exc:
            logger.info("game %s: %s; fetching the view", game_id, exc.code)
            view, refused = client.game(game_id), []
        except GameNotActive:
            return client.game(game_id)
    return view


def _newer(events: Iterator[dict[str, Any]], version: int) -> None:
    """Read events until one reports a game version after ``version``."""
    for event in events:
        event_version = event.get("version")
        if event_version is None or event_version > version:
            return


def play_game(
    client: Client,
    game_id: int,
    decide: Decide,
    *,
    use_stream: bool = True,
    poll_interval: float = 1.0,
) -> View:
    """Play game ``game_id`` to its end; returns the final view."""
    stream = client.game_stream(game_id).open() if use_stream else None
    events = iter(stream) if stream is not None else None
    try:
        view = client.game(game_id)  # after the stream opened: no change can slip between
        while view["status"] not in OVER:
            if view["legal_actions"]:
                view = play_turn(client, game_id, view, decide)
                continue
            if events is not None:
                _newer(events, view["version"])
            else:
                time.sleep(poll_interval)
            view = client.game(game_id)
        return view
    finally:
        if stream is not None:
            stream.close()


def play_forever(client: Client, decide: Decide, *, max_games: int | None = None) -> list[View]:
    """Play every game the account sits at, as the account stream announces turns.

    Returns the final views of the games seen finishing when ``max_games`` of them have.
    """
    finished: dict[int, View] = {}
    stream = client.account_stream().open()
    try:
        pending = [g["id"] for g in client.iter_games(mine=True, status="in_progress")]
        for game_id in pending:
            play_turn(client, game_id, client.game(game_id), decide)
        for event in stream:
            game_id = event.get("game")
            if not isinstance(game_id, int):
                continue
            if event.get("type") in TURN_EVENTS:
                view = play_turn(client, game_id, client.game(game_id), decide)
            elif event.get("type") == "game_finished":
                view = client.game(game_id)
            else:
                continue
            if view["status"] in OVER:
                finished[game_id] = view
                if max_games is not None and len(finished) >= max_games:
                    break
        return list(finished.values())
    finally:
        stream.close()


def describe_result(view: View) -> str:
    """One line: the game, its status and the final scores (every game's common result:
    ``winner_seats``, ``scores``; Indulgence's scores are florins)."""
    result = view.get("result") or {}
    seats = {seat["seat"]: seat["username"] for seat in view.get("seats", [])}
    scores = result.get("scores") or result.get("florins") or {}
    listed = ", ".join(f"{seats.get(int(seat), seat)} {amount}" for seat, amount in scores.items())
    winners = result.get("winner_seats")
    if winners is None and result.get("winner_seat") is not None:
        winners = [result["winner_seat"]]
    if not winners:
        return f"game {view['id']}: {view['status']}"
    won = "you won" if view.get("my_seat") in winners else "you lost"
    names = ", ".join(str(seats.get(w, w)) for w in winners)
    unit = "florins" if "florins" in result else "points"
    return (
        f"game {view['id']}: {view['status']}, winner {names} "
        f"({result.get('reason')}); {unit}: {listed}; {won}"
    )


def explicit(view: View) -> list[Action]:
    """The legal actions spelled out in full (an entry with ``template`` describes a
    family to fill in: New Eleusis' strings of cards, a rule's source)."""
    return [action for action in view["legal_actions"] if "template" not in action]


def parser(description: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--server", default="http://127.0.0.1:8000", help="The server's base URL.")
    p.add_argument("--token", required=True, help="A bearer token (manage.py issue_token).")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--game", type=int, help="Play this game (you must sit at it).")
    mode.add_argument(
        "--create-sandbox",
        action="store_true",
        help="Create an unrated seeded game against built-in bots and play it.",
    )
    p.add_argument("--seed", default="sandbox-1", help="The sandbox's seed (reproducible deal).")
    p.add_argument(
        "--game-type",
        default="indulgence",
        help="The sandbox's game: indulgence (default) or eleusis (GET /api/v1/game-types/).",
    )
    p.add_argument("--players", type=int, default=3, help="The sandbox's seats (default 3).")
    p.add_argument("--variant", default=None, help="The sandbox's variant (default: the first).")
    p.add_argument(
        "--opponents",
        default="random",
        help="The built-in bots in a sandbox (Indulgence: random, heuristic, ismcts; New "
        "Eleusis: random, novice, scientist).",
    )
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=JSON",
        help="A table option of the sandbox's game, e.g. hand_size=6 (repeatable).",
    )
    p.add_argument("--poll", action="store_true", help="Poll instead of using the streams.")
    p.add_argument(
        "--max-games",
        type=int,
        default=None,
        help="Without --game/--create-sandbox: stop after this many games finished.",
    )
    p.add_argument(
        "--no-keepalive",
        action="store_true",
        help="One TCP connection per request (faster against Django's development server).",
    )
    p.add_argument("--rng-seed", type=int, default=None, help="Seed of the bot's own choices.")
    p.add_argument("-v", "--verbose", action="store_true")
    return p


def main(
    make_decide: Callable[[random.Random], Decide],
    description: str,
    argv: Sequence[str] | None = None,
) -> int:
    """The example bots' command line (``--help`` lists the options)."""
    args = parser(description).parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
    )
    decide = make_decide(random.Random(args.rng_seed))
    headers = {"Connection": "close"} if args.no_keepalive else None
    with Client(args.server, args.token, headers=headers) as client:
        if args.create_sandbox or args.game is not None:
            if args.create_sandbox:
                options = {
                    key: json.loads(value)
                    for key, _, value in (item.partition("=") for item in args.option)
                }
                view = client.create_sandbox(
                    seed=args.seed,
                    player_count=args.players,
                    game_type=args.game_type,
                    variant=args.variant,
                    bot=args.opponents,
                    options=options or None,
                )
                print(f"created sandbox game {view['id']} (seed {args.seed!r})", flush=True)
                game_id = int(view["id"])
            else:
                game_id = args.game
            final = play_game(client, game_id, decide, use_stream=not args.poll)
            print(describe_result(final), flush=True)
            return 0
        for final in play_forever(client, decide, max_games=args.max_games):
            print(describe_result(final), flush=True)
    return 0
