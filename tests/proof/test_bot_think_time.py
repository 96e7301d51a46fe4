"""Issue 26, item 7 (low): the ISMCTS bot's move times tell when it had one legal card.

ISMCTS searches for about half a second to a second, but with a single legal card it
answered at once, and everyone sees the moves' times. Now a searching bot's move takes at
least ``BOT_MIN_THINK_SECONDS`` of its kind, however fast it decided.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from games import bots, selectors, services
from games.models import ActorKind, Game, Move

pytestmark = pytest.mark.django_db

FLOOR = 0.3


def _forced_move_game(owner: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Game, list[float]]:
    """A game whose ismcts seats decide instantly, as ISMCTS does with one legal card;
    returns the game and the seconds each bot turn took."""
    took: list[float] = []
    real_play = services.bot_turn_play

    def instant(kind: str, view: dict[str, Any], rng: Any, **game: Any) -> dict[str, Any]:
        return dict(view["legal_actions"][0])

    def timed(**kwargs: Any) -> bool:
        start = time.monotonic()
        played = real_play(**kwargs)
        if played:
            took.append(time.monotonic() - start)
        return played

    monkeypatch.setattr(bots, "choose", instant)
    monkeypatch.setattr(services, "bot_turn_play", timed)
    game = services.game_create(
        creator=owner, player_count=3, rated=False, bots=[(1, "ismcts"), (2, "ismcts")]
    )
    return game, took


def _play(game: Game, owner: Any) -> None:
    """A few turns: the owner's first legal action, the bots' turns run here."""
    for _ in range(6):
        game.refresh_from_db()
        if game.to_act_seat == 0:
            view = selectors.game_view(game=game, user=owner)
            services.action_submit(game_id=game.pk, user=owner, action=view["legal_actions"][0])
        elif game.to_act_seat in (1, 2):
            services.bot_turn_play(game_id=game.pk, expected_version=game.version)


def test_a_forced_ismcts_move_takes_the_floor(
    owner: Any, settings: SettingsWrapper, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.BOT_MIN_THINK_SECONDS = {"ismcts": FLOOR}
    game, took = _forced_move_game(owner, monkeypatch)
    _play(game, owner)
    assert took, "no bot turn was played"
    assert min(took) >= FLOOR
    bot_moves = Move.objects.filter(game=game, actor_kind=ActorKind.BOT).count()
    assert bot_moves >= len(took)


def test_without_a_floor_the_same_move_is_instant(
    owner: Any, settings: SettingsWrapper, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The contrast that makes the first test mean something: the decision itself is instant.
    settings.BOT_MIN_THINK_SECONDS = {}
    game, took = _forced_move_game(owner, monkeypatch)
    _play(game, owner)
    assert took
    assert max(took) < FLOOR
