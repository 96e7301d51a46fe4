"""The games the server hosts, by key (architecture.md, "Many games").

>>> from engine import registry
>>> game = registry.get("indulgence")
>>> game.META.player_counts
(3, 4)
>>> state = game.new_game(4, "basic", "demo")

Every entry of :data:`GAMES` satisfies :class:`engine.core.GameModule`: a ``META`` describing the
game and the functions of the engine contract. The server knows games only through this
module: Indulgence (``indulgence``), New Eleusis (``eleusis``, whose package module
is itself the entry: :mod:`engine.eleusis` exposes ``META`` and every function) and Pax
Illuminaten (``pax``, with ``standard`` and one ``automa-<bot>`` variant per automa of
section 14: the automa is seat N-1 and plays its turns as automatic steps, ``advance``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine import bots as indulgence_bots
from engine import eleusis, indulgence
from engine.core import Bot, GameMeta, GameModule, JsonDict
from engine.pax.game import PaxGame


def _indulgence_bot(kind: str) -> Bot:
    def bot(view: JsonDict, rng: random.Random) -> JsonDict:
        return indulgence_bots.choose(kind, view, rng)

    bot.__name__ = f"indulgence_{kind}_bot"
    return bot


def common_ranking(florins: Mapping[int, int], winner: int) -> list[list[int]]:
    """Indulgence's ranking: the winner (after the engine's tie-break) alone first, then
    the others by florins, equal purses sharing a place (as games.services rates it)."""
    others = sorted((s for s in florins if s != winner), key=lambda s: (-florins[s], s))
    ranking: list[list[int]] = [[winner]]
    for seat in others:
        if len(ranking) > 1 and florins[ranking[-1][0]] == florins[seat]:
            ranking[-1].append(seat)
        else:
            ranking.append([seat])
    return ranking


class IndulgenceGame:
    """Indulgence through the common contract: its own functions, unchanged, plus
    ``META``, ``new_game(..., options)`` and ``result`` in the common shape (which keeps
    Indulgence's own keys ``winner_seat`` and ``florins``)."""

    META = GameMeta(
        key="indulgence",
        title="Indulgence",
        player_counts=(3, 4),
        variants=("basic", "expert"),
        rated_player_counts=(3, 4),
        bots={kind: _indulgence_bot(kind) for kind in indulgence_bots.available()},
    )
    to_act = staticmethod(indulgence.to_act)
    legal_actions = staticmethod(indulgence.legal_actions)
    advance = staticmethod(indulgence.advance)
    view = staticmethod(indulgence.view)
    full_record = staticmethod(indulgence.full_record)
    is_over = staticmethod(indulgence.is_over)
    state_to_json = staticmethod(indulgence.state_to_json)
    state_from_json = staticmethod(indulgence.state_from_json)
    seed_commitment = staticmethod(indulgence.seed_commitment)

    @staticmethod
    def apply(
        state: indulgence.State, seat: int, action: JsonDict, by: str | None = None
    ) -> indulgence.State:
        """``engine.indulgence.apply``; its record does not say who acted, so ``by`` is
        not kept (the server's move log says it)."""
        return indulgence.apply(state, seat, action)

    @staticmethod
    def timeout_action(state: indulgence.State) -> JsonDict | None:
        """Every Indulgence turn whose time ran out is played by the seat's autopilot."""
        return None

    @staticmethod
    def new_game(
        player_count: int,
        variant: str = "basic",
        seed: str = indulgence.DEFAULT_SEED,
        options: Mapping[str, Any] | None = None,
    ) -> indulgence.State:
        if options:
            raise ValueError(f"Indulgence takes no options, not {sorted(options)!r}")
        return indulgence.new_game(player_count, variant, seed)

    @staticmethod
    def result(state: indulgence.State) -> JsonDict | None:
        """``{"ranking", "scores", "winner_seats", "reason"}`` (and ``winner_seat``,
        ``florins`` as :func:`engine.indulgence.result` gives them); scores are keyed by
        the seat as a string, as in JSON."""
        own = indulgence.result(state)
        if own is None:
            return None
        florins = {int(seat): amount for seat, amount in own["florins"].items()}
        winner = int(own["winner_seat"])
        return {
            "ranking": common_ranking(florins, winner),
            "scores": dict(own["florins"]),
            "winner_seats": [winner],
            "reason": own["reason"],
            "winner_seat": winner,
            "florins": own["florins"],
        }


GAMES: dict[str, GameModule] = {
    "indulgence": IndulgenceGame(),
    "eleusis": eleusis,
    "pax": PaxGame(),
}


def get(key: str) -> GameModule:
    """The game of that key; ``KeyError`` naming the known keys if there is none."""
    try:
        return GAMES[key]
    except KeyError:
        raise KeyError(f"There is no game {key!r} (known: {', '.join(sorted(GAMES))}).") from None
