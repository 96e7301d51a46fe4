"""The ISMCTS bot: single-observer information-set Monte Carlo tree search.

Each iteration deals the cards this seat cannot see consistently with its view
(:func:`engine.bots._observe.sample_hidden`: hand counts, revealed voids, cards seen,
face-down plays), walks the shared tree with UCB (counting for every child how often
it was available, as ISMCTS does), adds one node, plays the hand out with the cheap
rule-based policy of :class:`engine.bots._sim.SimHand`, and backs up every seat's
florin delta for the hand (each node is scored for the seat that moved into it).
Other seats' sin decisions follow the policy's sin rule on their sampled hand instead
of the tree. The move with the most visits at the root is played.

The budget is an iteration count, optionally cut by a time limit; with the iteration
budget alone the bot is deterministic given its ``random.Random``. The engine has no
clock: a caller that sets ``max_seconds`` must also pass the ``clock`` to read (the
command-line arena passes ``time.perf_counter``; tests pass a fake one).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from engine.bots._observe import DECIDING, Observation, decode, sample_hidden
from engine.bots._sim import SimHand

VERSION = "1"
DEFAULT_ITERATIONS = 1000
"""Playouts per decision (docs/bot-strength.md: the measured time per decision)."""

EXPLORATION = 0.7
REWARD_SCALE = 10.0  # florins per unit of reward in UCB
PLAYOUT_EPSILON = 0.1

JsonDict = dict[str, Any]


class Node:
    """A tree node: the move that led here, by whom, and its statistics."""

    __slots__ = ("actor", "avail", "children", "total", "visits")

    def __init__(self, actor: int) -> None:
        self.actor = actor
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


class IsmctsBot:
    """An ISMCTS player; call it like any bot: ``bot(view, rng) -> action``.

    ``iterations``: playouts per decision; ``max_seconds``: optional time cap per
    decision (at least ``min_iterations`` playouts are always run); ``clock``: the time
    source for that cap, in seconds, required with ``max_seconds`` (``ValueError``
    otherwise; the engine itself never reads a clock).
    """

    def __init__(
        self,
        iterations: int = DEFAULT_ITERATIONS,
        max_seconds: float | None = None,
        *,
        min_iterations: int = 50,
        exploration: float = EXPLORATION,
        epsilon: float = PLAYOUT_EPSILON,
        clock: Callable[[], float] | None = None,
    ) -> None:
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        if max_seconds is not None and clock is None:
            raise ValueError("max_seconds needs a clock (the engine has none of its own)")
        self.iterations = iterations
        self.max_seconds = max_seconds
        self.min_iterations = min(min_iterations, iterations)
        self.exploration = exploration
        self.epsilon = epsilon
        self.clock = clock
        self.last_iterations = 0  # playouts run for the last decision (0: no search)

    def __call__(self, view: JsonDict, rng: random.Random) -> JsonDict:
        actions: list[JsonDict] = view["legal_actions"]
        if not actions:
            raise ValueError("The ISMCTS bot was asked to move with no legal action.")
        self.last_iterations = 0
        if len(actions) == 1:
            return dict(actions[0])
        obs = Observation(view)
        move = self.search(obs, rng)
        pending = obs.pending_tie[0] if obs.pending_tie else None
        action = decode(move, pending)
        if action not in actions:  # defensive: the search only ever picks root moves
            raise AssertionError(f"ISMCTS picked an illegal move {action!r}")
        return action

    def search(self, obs: Observation, rng: random.Random) -> int:
        """The move code with the most visits after the budget."""
        root = Node(obs.me)
        rand = rng.random
        me = obs.me
        c = self.exploration
        epsilon = self.epsilon
        clock = self.clock
        deadline = None if self.max_seconds is None or clock is None else clock() + self.max_seconds
        done = 0
        for done in range(1, self.iterations + 1):
            hands, plays = sample_hidden(obs, rng)
            sim = SimHand(obs, hands, plays)
            node = root
            path: list[Node] = []
            while not sim.done:
                actor = sim.actor
                if sim.phase == DECIDING and actor != me:
                    sim.step(sim.policy_move(rand, 0.0))
                    continue
                legal = sim.legal()
                if len(legal) == 1:
                    sim.step(legal[0])
                    continue
                children = node.children
                untried = []
                for move in legal:
                    child = children.get(move)
                    if child is None:
                        untried.append(move)
                    else:
                        child.avail += 1
                if untried:
                    move = untried[int(rand() * len(untried))]
                    child = Node(actor)
                    child.avail = 1
                    children[move] = child
                    path.append(child)
                    sim.step(move)
                    break
                best_move = legal[0]
                best_child = children[best_move]
                best_score = -math.inf
                for move in legal:
                    child = children[move]
                    score = child.total / child.visits + c * math.sqrt(
                        math.log(child.avail) / child.visits
                    )
                    if score > best_score:
                        best_score, best_move, best_child = score, move, child
                path.append(best_child)
                sim.step(best_move)
                node = best_child
            sim.playout(rand, epsilon)
            deltas = sim.deltas()
            for visited in path:
                visited.visits += 1
                visited.total += deltas[visited.actor] / REWARD_SCALE
            if (
                deadline is not None
                and clock is not None
                and done >= self.min_iterations
                and clock() >= deadline
            ):
                break
        self.last_iterations = done
        legal_root = [m for m in obs.legal if m in root.children]
        if not legal_root:
            return obs.legal[0]
        return max(
            legal_root,
            key=lambda m: (
                root.children[m].visits,
                root.children[m].total / root.children[m].visits,
            ),
        )


def ismcts_bot(view: JsonDict, rng: random.Random) -> JsonDict:
    """The registered ISMCTS bot at its default budget (iterations only: deterministic)."""
    return IsmctsBot()(view, rng)
