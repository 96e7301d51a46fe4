"""A stronger bot: the offline engine's own bots, on the view the server sends, in any
game of ``engine.registry``.

    python examples/bots/engine_bot.py --token $TOKEN --create-sandbox
    python examples/bots/engine_bot.py --token $TOKEN --create-sandbox --game-type eleusis \
        --players 4 --opponents novice --option hand_size=6

(``--server`` defaults to http://127.0.0.1:8000.)

The server's view is the engine's view of your seat plus server fields (id, version,
seats...), so the engine's bot of that game (``META.bots``; Indulgence's heuristic, New
Eleusis' scientist by default) decides on it directly. Run it from a checkout of the
repository (it imports ``engine``). ``--help`` lists the options; ``--brain ismcts`` (or
any bot of the game) uses another.
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # the engine package of this checkout
try:
    import indulgence_client
except ImportError:  # not installed: use the copy in this repository
    sys.path.insert(0, str(ROOT / "clients" / "python"))
    import indulgence_client

from indulgence_client.bot import Decide, main  # noqa: E402

# The engine is this checkout's, loaded by name: the example's strict type check (make
# typecheck) covers the client and the examples, not the engine's own code.
registry: Any = importlib.import_module("engine.registry")

BRAIN: str | None = None  # None: the game's default below
DEFAULT_BRAIN = {"indulgence": "heuristic", "eleusis": "scientist"}


def make_decide(rng: random.Random) -> Decide:
    def decide(view: indulgence_client.View) -> indulgence_client.Action:
        # The bot loop narrows legal_actions after an illegal_action refusal; the engine
        # bots answer from the view they are given.
        game_type = view.get("game_type", "indulgence")
        bots = registry.get(game_type).META.bots
        brain = BRAIN or DEFAULT_BRAIN.get(game_type) or sorted(bots)[0]
        action: indulgence_client.Action = bots[brain](view, rng)
        return action

    return decide


if __name__ == "__main__":
    if "--brain" in sys.argv:
        index = sys.argv.index("--brain")
        BRAIN = sys.argv[index + 1]
        del sys.argv[index : index + 2]
    sys.exit(main(make_decide, f"A bot that plays like the built-in {BRAIN or 'default'} bot."))
