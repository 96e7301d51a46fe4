"""The load test's clients (``loadtest.run``): token clients that play whole games over
HTTP, each request a legal move the client worked out with the offline engine, or read
a game's view; run in child processes, several threads each, every loop bounded by time
and by count. Moved out of ``loadtest/run.py`` as is (the file size rule)."""

from __future__ import annotations

import http.client
import json
import multiprocessing
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import psycopg

from engine import registry

MAX_REQUESTS_PER_CLIENT = 20_000
# What each game's clients create: seats, the table's options (New Eleusis: small hands
# and the sanity check's short run, as the tests use, so a game is a few dozen moves),
# and the options the server then starts the engine with (games.kinds' engine_options:
# unrated, no bot seat, no deadline).
GAMES: dict[str, dict[str, Any]] = {
    "indulgence": {"players": 3, "options": {}, "engine": {}},
    "eleusis": {
        "players": 4,
        "options": {"hand_size": 6, "sanity_walks": 20, "round_limit": 1},
        "engine": {"rated": False, "deadlines": {}},
    },
    # Pax Illuminaten: 3 seats, capped at 3 rounds (15.5.3) so a game is a few hundred
    # decisions and automatic steps.
    "pax": {"players": 3, "options": {"round_cap": 3}, "engine": {}},
}


# --- the clients (run in child processes, several threads each) ---------------------------


class Http:
    """A minimal JSON client on ``http.client`` (a fraction of httpx's CPU per request,
    which matters when the clients share the server's two cores). Reconnects when the
    server closes the connection (gunicorn's sync workers close after every answer)."""

    def __init__(self, url: str) -> None:
        parsed = urlsplit(url)
        self.host, self.port = parsed.hostname or "127.0.0.1", parsed.port or 80
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=10)

    def request(
        self, method: str, path: str, token: str, body: Any = None, key: str | None = None
    ) -> tuple[int, dict[str, Any]]:
        headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
        if key is not None:
            headers["Idempotency-Key"] = key
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                raw = response.read()
                if response.will_close:
                    self.conn.close()
                return response.status, json.loads(raw) if raw else {}
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.conn.close()  # a kept-alive connection the server had closed: retry once
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.conn.close()


def _get_loop(url: str, tokens: list[str], game: int, seconds: float, out: list[Any]) -> None:
    latencies: list[float] = []
    done = errors = 0
    stop = time.monotonic() + seconds
    client = Http(url)
    try:
        while time.monotonic() < stop and done < MAX_REQUESTS_PER_CLIENT:
            started = time.perf_counter()
            status, _ = client.request("GET", f"/api/v1/games/{game}/", tokens[0])
            latencies.append(time.perf_counter() - started)
            done += 1
            errors += status != 200
    finally:
        client.close()
    out.append({"gets": done, "errors": errors, "latencies": latencies})


def new_game(
    client: Http,
    tokens: list[str],
    seed: str | None = None,
    db: Any = None,
    game_type: str = "indulgence",
) -> dict[str, Any]:
    """An unrated game of ``game_type`` for the tokens' accounts (one seat each). With
    ``seed`` (and ``db``, a psycopg connection to the stack's database) it is dealt from
    that seed: set in the database before the others join, as if the server had drawn it.
    A seed chosen through the API would make a sandbox that no other account may join
    (issue 26)."""
    body: dict[str, Any] = {
        "game_type": game_type,
        "player_count": len(tokens),
        "rated": False,
        "options": GAMES[game_type]["options"],
    }
    _, view = client.request("POST", "/api/v1/games/", tokens[0], body)
    if seed is not None:
        commitment = registry.get(game_type).seed_commitment(seed)
        db.execute(
            "UPDATE games_game SET seed = %s, seed_commitment = %s WHERE id = %s",
            (seed, commitment, view["id"]),
        )
    for token in tokens[1:]:
        _, view = client.request("POST", f"/api/v1/games/{view['id']}/join", token)
    return view


def _move_loop(
    url: str,
    tokens: list[str],
    seconds: float,
    out: list[Any],
    keys: bool,
    dsn: str,
    game_type: str = "indulgence",
) -> None:
    """Play whole games as fast as the server answers, every request a legal move.

    The client creates unrated games dealt from seeds it draws (``new_game``) and
    follows each game with the offline engine, so it knows the next seat's legal actions
    without asking: the same thing a bot author's client does. Every answer is checked
    against the local game (version and seat to act); a mismatch counts as an error.
    Only while the worker settles a hand does the client poll (GET, not counted as
    moves). With ``keys`` every action carries a fresh ``Idempotency-Key``, as
    ``indulgence_client`` sends. Actions are the explicit ones of ``legal_actions``
    (entries with a ``template``, New Eleusis' strings and rule sources, are left out)."""
    import random

    rules = registry.get(game_type)
    players = len(tokens)
    options = {
        **GAMES[game_type]["options"],
        **GAMES[game_type]["engine"],
        **({"bots": [False] * players} if GAMES[game_type]["engine"] else {}),
    }

    latencies: list[float] = []
    errors: list[str] = []
    waits = games = 0
    rng = random.Random(tokens[0])
    stop = time.monotonic() + seconds

    db = psycopg.connect(dsn, autocommit=True)

    def start(conn: Http) -> tuple[int, int, Any]:
        seed = f"load-{uuid.uuid4().hex}"
        view = new_game(conn, tokens, seed, db, game_type)
        variant = rules.META.default_variant
        state = rules.new_game(players, variant, seed, options or None)
        return int(view["id"]), int(view["version"]), state

    client = Http(url)
    try:
        game_id, version, state = start(client)
        games += 1
        requests = 0
        while time.monotonic() < stop and requests < MAX_REQUESTS_PER_CLIENT:
            requests += 1
            if rules.is_over(state):
                game_id, version, state = start(client)
                games += 1
                continue
            seat = rules.to_act(state)
            if seat is None:  # the worker settles the hand: look again shortly
                time.sleep(0.02)
                waits += 1
                _, view = client.request("GET", f"/api/v1/games/{game_id}/", tokens[0])
                if view["version"] > version:
                    state = rules.advance(state)
                    version += 1
                continue
            action = rng.choice(
                [a for a in rules.legal_actions(state, seat) if "template" not in a]
            )
            body = {"action": action, "version": version}
            started = time.perf_counter()
            status, answer = client.request(
                "POST",
                f"/api/v1/games/{game_id}/actions",
                tokens[seat],
                body,
                key=uuid.uuid4().hex if keys else None,
            )
            latencies.append(time.perf_counter() - started)
            if status != 200:
                errors.append(f"{status} {json.dumps(answer)[:120]}")
                game_id, version, state = start(client)  # start afresh: nothing to trust
                games += 1
                continue
            state = rules.apply(state, seat, action)
            version += 1
            if answer["version"] != version or answer["to_act"] != rules.to_act(state):
                errors.append(f"diverged: server {answer['version']}/{answer['to_act']}")
                game_id, version, state = start(client)
                games += 1
    finally:
        client.close()
        db.close()
    out.append({"latencies": latencies, "errors": errors, "waits": waits, "games": games})


def _worker_process(kind: str, url: str, work: list[Any], seconds: float, queue: Any) -> None:
    out: list[Any] = []
    threads = []
    for item in work:
        target: Callable[..., None]
        args: tuple[Any, ...]
        if kind == "get":
            target, args = _get_loop, (url, item["tokens"], item["game"], seconds, out)
        else:
            target = _move_loop
            args = (url, item["tokens"], seconds, out, item["keys"], item["dsn"], item["game"])
        threads.append(threading.Thread(target=target, args=args))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 60)
    queue.put(out)


def run_clients(kind: str, url: str, work: list[Any], seconds: float, processes: int) -> list[Any]:
    queue: Any = multiprocessing.Queue()
    chunks = [work[i::processes] for i in range(processes)]
    procs = [
        multiprocessing.Process(target=_worker_process, args=(kind, url, chunk, seconds, queue))
        for chunk in chunks
        if chunk
    ]
    for proc in procs:
        proc.start()
    results: list[Any] = []
    for _ in procs:
        results.extend(queue.get(timeout=seconds + 120))
    for proc in procs:
        proc.join(30)
    return results
