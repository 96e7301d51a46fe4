"""A stronger bot: the offline engine's heuristic bot, on the view the server sends.

    python examples/bots/engine_bot.py --token $TOKEN --create-sandbox

(``--server`` defaults to http://127.0.0.1:8000.)

The server's view is the engine's view of your seat plus server fields (id, version,
seats...), so ``engine.bots.choose("heuristic", view, rng)`` decides on it directly.
Run it from a checkout of the repository (it imports ``engine``). ``--help`` lists the
options; ``--brain ismcts`` uses the (slower) ISMCTS bot instead.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # the engine package of this checkout
try:
    import indulgence_client
except ImportError:  # not installed: use the copy in this repository
    sys.path.insert(0, str(ROOT / "clients" / "python"))
    import indulgence_client

from indulgence_client.bot import Decide, main  # noqa: E402

import engine.bots  # noqa: E402

BRAIN = "heuristic"


def make_decide(rng: random.Random) -> Decide:
    def decide(view: indulgence_client.View) -> indulgence_client.Action:
        # The bot loop narrows legal_actions after an illegal_action refusal; the engine
        # bots always answer with one of the actions they are given.
        return engine.bots.choose(BRAIN, view, rng)

    return decide


if __name__ == "__main__":
    if "--brain" in sys.argv:
        index = sys.argv.index("--brain")
        BRAIN = sys.argv[index + 1]
        del sys.argv[index : index + 2]
    sys.exit(main(make_decide, f"A bot that plays like the built-in {BRAIN} bot."))
