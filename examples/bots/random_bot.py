"""The smallest bot: a random legal action, every time, in any game.

    python examples/bots/random_bot.py --token $TOKEN --create-sandbox
    python examples/bots/random_bot.py --token $TOKEN --create-sandbox --game-type eleusis \
        --players 4 --opponents novice --option hand_size=6

(``--server`` defaults to http://127.0.0.1:8000.)

Without --create-sandbox or --game it plays every game its account sits at, woken by
the account stream (``--poll`` to poll instead). ``--help`` lists the options.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

try:
    import indulgence_client
except ImportError:  # not installed: use the copy in this repository
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))
    import indulgence_client

from indulgence_client.bot import Decide, explicit, main


def make_decide(rng: random.Random) -> Decide:
    def decide(view: indulgence_client.View) -> indulgence_client.Action:
        # Entries with a "template" describe a family of actions (New Eleusis' strings of
        # cards, a rule's source): this bot picks among the ones spelled out.
        return dict(rng.choice(explicit(view) or view["legal_actions"]))

    return decide


if __name__ == "__main__":
    sys.exit(main(make_decide, "A bot that plays a random legal action."))
