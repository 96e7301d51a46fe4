"""Deliberately broken bots, for the conformance tool's tests.

    python tests/bots_kit/broken_bot.py FLAW SERVER TOKEN GAME

* ``stubborn``: sends the first legal action and, when refused, sends the very same
  request again (forever): it never recovers from illegal_action or version_conflict.
* ``no-reconnect``: moves when its game stream says something happened, but when the
  stream connection drops it silently stops listening.
* ``slow``: a correct bot that thinks SLOW_SECONDS (3) before every move.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from indulgence_client import Client, View, play_game

SLOW_SECONDS = 3.0


def stubborn(http: httpx.Client, game: int) -> None:
    while True:
        view = http.get(f"/api/v1/games/{game}/").json()
        if view["status"] != "in_progress":
            return
        if not view["legal_actions"]:
            time.sleep(0.1)
            continue
        body = {"action": view["legal_actions"][0], "version": view["version"]}
        while http.post(f"/api/v1/games/{game}/actions", json=body).status_code != 200:
            time.sleep(0.1)  # refused: try exactly the same again


def no_reconnect(http: httpx.Client, game: int) -> None:
    rng = random.Random(1)

    def act() -> None:
        view = http.get(f"/api/v1/games/{game}/").json()
        while view["legal_actions"]:
            body = {"action": rng.choice(view["legal_actions"]), "version": view["version"]}
            view = http.post(f"/api/v1/games/{game}/actions", json=body).json()

    try:
        with http.stream("GET", f"/api/v1/games/{game}/stream", timeout=None) as stream:
            act()
            for line in stream.iter_lines():
                if line.startswith("data:") and json.loads(line[5:])["type"] != "game_finished":
                    act()
    except httpx.HTTPError:
        pass
    time.sleep(3600)  # the stream is gone: the bot hangs, deaf


def slow(server: str, token: str, game: int) -> None:
    rng = random.Random(2)

    def decide(view: View) -> dict[str, object]:
        time.sleep(SLOW_SECONDS)
        return dict(rng.choice(view["legal_actions"]))

    with Client(server, token) as client:
        play_game(client, game, decide)


def main() -> None:
    flaw, server, token, game = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    if flaw == "slow":
        slow(server, token, game)
        return
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=server, headers=headers, timeout=30) as http:
        {"stubborn": stubborn, "no-reconnect": no_reconnect}[flaw](http, game)


if __name__ == "__main__":
    main()
