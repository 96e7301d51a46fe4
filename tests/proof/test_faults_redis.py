"""Redis stopped mid-game: a private Redis (broker and event fan-out) and a real Celery
worker, the web app under test pointed at them; Redis is killed by PID, the site is used,
Redis comes back on the same port, and the work queued while it was down completes."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client as DjangoClient
from pytest_django.fixtures import Settings as SettingsWrapper

from games import deadlines, services
from games.models import Game, GameStatus, Move
from indulgence_site.celery import app as celery_app
from tests.api.support import Client, game_url
from tests.helpers import snapshot_mismatches
from tests.procs import QUEUE, Worker, wait_until
from tests.proof.faults import PrivateRedis
from tests.tasks.conftest import _reset_producer_pool

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def redis_broker(settings: SettingsWrapper, tmp_path: Path) -> Iterator[PrivateRedis]:
    """This process and its worker use a private Redis as broker, cache-free."""
    server = PrivateRedis(tmp_path)
    server.start()
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.REDIS_URL = server.url
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "actions": None},
    }
    keys = ("broker_url", "task_always_eager", "task_default_queue")
    saved = {key: celery_app.conf[key] for key in keys}
    celery_app.conf.update(broker_url=server.url, task_always_eager=False, task_default_queue=QUEUE)
    _reset_producer_pool()
    try:
        yield server
    finally:
        celery_app.conf.update(saved)
        _reset_producer_pool()
        server.stop()


@pytest.fixture
def worker(redis_broker: PrivateRedis, tmp_path: Path) -> Iterator[Worker]:
    started = Worker(tmp_path, concurrency=1, REDIS_URL=redis_broker.url)
    yield started
    started.kill()


def _owner_to_act(game: Game) -> bool:
    game.refresh_from_db()
    return game.to_act_seat == 0 or game.status != GameStatus.IN_PROGRESS


def test_a_move_made_while_redis_is_down_is_kept_and_its_bot_reply_follows_when_it_returns(
    redis_broker: PrivateRedis, worker: Worker, settings: SettingsWrapper
) -> None:
    owner = get_user_model().objects.create_user(username="owner", password="pw")
    game = services.game_create(
        creator=owner,
        player_count=3,
        rated=False,
        seed="faults",
        bots=[(1, "random"), (2, "random")],
    )
    _token, raw = services.token_issue(user=owner, name="fault")
    api = Client(raise_request_exception=False)
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    web = DjangoClient(raise_request_exception=False)
    web.force_login(owner)
    wait_until(lambda: _owner_to_act(game), timeout=60, what="the bots to reach the owner")
    assert game.status == GameStatus.IN_PROGRESS

    redis_broker.stop()
    # The site keeps serving pages and the API.
    for url in ("/", "/lobby/", f"/games/{game.pk}/", "/rules/"):
        assert web.get(url).status_code == 200, url
    view = api.get(game_url(game))
    assert view.status_code == 200
    health = web.get("/healthz")
    assert health.json()["redis"]["status"] == "error", health.json()
    # A move is accepted, or refused cleanly; never a 500.
    moves_before = Move.objects.filter(game=game).count()
    started = time.monotonic()
    response = api.post(
        game_url(game, "actions"),
        {"action": view.json()["legal_actions"][0], "version": view.json()["version"]},
        format="json",
    )
    answered_in = time.monotonic() - started
    assert response.status_code < 500, response.content[:500]
    assert response.status_code in {200, 503}, response.content[:500]
    assert answered_in < 10
    accepted = response.status_code == 200
    assert accepted, "the server needs no broker to accept a move (the sweep re-queues)"
    assert Move.objects.filter(game=game).count() == moves_before + (1 if accepted else 0)
    game.refresh_from_db()
    version_while_down = game.version

    redis_broker.start()
    worker.wait_ready()  # the worker reconnects to the broker by itself
    # The bot reply queued while Redis was down was lost with it; the stalled-game sweep
    # queues it again (STALLED_GAME_SECONDS after the last change).
    settings.STALLED_GAME_SECONDS = 0.5
    time.sleep(0.6)

    def followed_up() -> bool:
        deadlines.stalled_games_kick()
        game.refresh_from_db()
        return game.version > version_while_down and _owner_to_act(game)

    wait_until(followed_up, timeout=60, what="the bots to answer the move", every=1.0)
    assert not snapshot_mismatches()
    seqs = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


def test_a_task_delivered_twice_to_a_real_worker_changes_nothing_the_second_time(
    redis_broker: PrivateRedis, worker: Worker
) -> None:
    from games import tasks

    owner = get_user_model().objects.create_user(username="owner", password="pw")
    game = services.game_create(
        creator=owner,
        player_count=3,
        rated=False,
        seed="twice",
        bots=[(1, "random"), (2, "random")],
    )
    wait_until(lambda: _owner_to_act(game), timeout=60, what="the bots to reach the owner")
    moves = Move.objects.filter(game=game).count()
    version = game.version
    # The same bot turn as the one already played, twice more; and a settlement of hand 1
    # (not due): each must find nothing to do.
    stale = [tasks.bot_turn.delay(game.pk, version - 1) for _ in range(2)]
    stale += [tasks.hand_settle.delay(game.pk, 1) for _ in range(2)]
    assert len({result.id for result in stale}) == 4
    fence = tasks.bot_turn.delay(game.pk, version)  # processed after them (concurrency 1)

    def drained() -> bool:
        client = celery_app.connection_for_write()
        with client as conn:
            return conn.default_channel.client.llen(QUEUE) == 0

    wait_until(drained, timeout=30, what="the worker to take the duplicate tasks")
    time.sleep(1.0)  # the last one taken is being run
    game.refresh_from_db()
    assert fence.id
    assert (game.version, Move.objects.filter(game=game).count()) == (version, moves)
    assert game.to_act_seat == 0
