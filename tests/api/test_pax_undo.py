"""Undo through the API (the spec's 15.5.2; docs/pax.md P-79, P-80):
``POST /api/v1/games/{id}/undo`` takes back the active player's own last atomic action
while nothing hidden was revealed; the view's ``can_undo`` says when. The move taken back
is archived (out of the move log, the replay and the export), every seat's view is again
what it was before the move, and the refusals: a stale or missing version, a closed window
(a Scout), another seat, an autopilot's move, a game without undo (Indulgence, New
Eleusis). The suite's check that each snapshot equals a replay of the live moves runs
after every test here too (tests/conftest.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.utils import timezone

from engine.core import JsonDict
from engine.pax import engine as pax_engine
from engine.pax.undo import entry_reveals, undoable
from games import kinds, services
from games.api.shapes_pax import PaxGameViewResponse
from games.models import ActorKind, AuditAction, Event, Game, Move
from tests.api.conftest import Bearer
from tests.api.support import Client, game_url
from tests.api.test_eleusis_api import eleusis_game
from tests.api.test_schema import assert_shape
from tests.helpers import game_with_seed, server_steps

pytestmark = pytest.mark.django_db

PLAIN_FIRST = ("influence", "extort", "organize", "expel", "scheme")


def plain_action(game: Game, seat: int, only: str = "") -> JsonDict | None:
    """An action of ``seat``'s menu that the engine would let it take back (an Influence
    first; ``only``: of that type), or None."""
    state = kinds.of(game).load(game.snapshot)
    actions = [a for a in pax_engine.legal_actions(state, seat) if a["type"] == (only or a["type"])]
    ordered = sorted(
        actions, key=lambda a: PLAIN_FIRST.index(a["type"]) if a["type"] in PLAIN_FIRST else 9
    )
    for action in ordered:
        if action["type"] != "end" and undoable(pax_engine.apply(state, seat, action), seat):
            return action
    return None


def scout_path(game: Game, seat: int) -> list[JsonDict] | None:
    """A Scout and the decisions after it (its payments, each the first offered) up to the
    one that shows the scouted card (7.1.2), or None when no Scout is offered."""
    state = kinds.of(game).load(game.snapshot)
    for first in pax_engine.legal_actions(state, seat):
        if first["type"] != "scout":
            continue
        path, now = [first], pax_engine.apply(state, seat, first)
        while pax_engine.to_act(now) == seat and len(path) < 8:
            if any(st["step"] == "seen" for st in now.log[-1]["steps"]):
                return path
            step = pax_engine.legal_actions(now, seat)[0]
            path.append(step)
            now = pax_engine.apply(now, seat, step)
    return None


def to_menu(game: Game, users: dict[int, Any], rng: random.Random, *, want: Any) -> Game:
    """Play the people's seats at random (the server's steps between) until seat 0 is at
    its Action phase menu and ``want(game)`` holds."""
    for _ in range(600):
        game = server_steps(game)
        state = kinds.of(game).load(game.snapshot)
        seat = game.to_act_seat
        assert seat is not None
        if seat == 0 and state.pending[-1][1] == "action" and want(game):
            return game
        action = rng.choice(pax_engine.legal_actions(state, seat))
        services.action_submit(game_id=game.pk, user=users[seat], action=action)
    raise AssertionError("seat 0 never reached the wanted menu")


def people_game(owner: Any, opponent: Any, seed: str, **options: Any) -> Game:
    """A 3-seat Pax game dealt from ``seed``: owner (seat 0) and opponent (seat 1), people,
    and a random bot (seat 2)."""
    game = game_with_seed(
        creator=owner,
        seed=seed,
        game_type="pax",
        player_count=3,
        rated=False,
        bots=[(2, "random")],
        options={"round_cap": 2},
        **options,
    )
    services.game_join(game_id=game.pk, user=opponent)
    return server_steps(game)


@pytest.fixture
def two_people(owner: Any, opponent: Any, bearer: Bearer) -> tuple[Game, Client, Client]:
    """``people_game`` with each person's API client."""
    return people_game(owner, opponent, "undo-api-0"), bearer(owner), bearer(opponent)


def test_a_player_takes_back_an_influence_and_every_seat_sees_the_table_as_before(
    two_people: tuple[Game, Client, Client], owner: Any, opponent: Any, anonymous: Client
) -> None:
    game, client, other = two_people
    game = to_menu(
        game,
        {0: owner, 1: opponent},
        random.Random(1),
        want=lambda g: plain_action(g, 0, "influence"),
    )
    url = game_url(game)
    action = plain_action(game, 0, "influence")
    assert action is not None
    before = {name: c.get(url).json() for name, c in (("0", client), ("1", other))}
    before["spectator"] = anonymous.get(url).json()
    moves_before = anonymous.get(f"{url}moves").json()["moves"]
    assert before["1"]["can_undo"] is False
    assert before["spectator"]["can_undo"] is False

    acted = client.post(
        f"{url}actions", {"action": action, "version": before["0"]["version"]}, format="json"
    ).json()
    assert acted["can_undo"] is True
    assert other.get(url).json()["can_undo"] is False  # not theirs to take back

    undone = client.post(f"{url}undo", {"version": acted["version"]}, format="json")
    assert undone.status_code == 200, undone.json()
    view = undone.json()
    assert view["version"] == acted["version"] + 1
    assert_shape(PaxGameViewResponse(), view, "undone view")
    after = {"0": view, "1": other.get(url).json(), "spectator": anonymous.get(url).json()}
    for reader, seen in after.items():
        # Each seat (and a spectator) sees exactly what it saw before the move.
        strip = {"version", "can_undo"}
        assert {k: v for k, v in seen.items() if k not in strip} == {
            k: v for k, v in before[reader].items() if k not in strip
        }, reader
    assert anonymous.get(f"{url}moves").json()["moves"] == moves_before

    archived = Move.objects.get(game=game, archived_at__isnull=False)
    assert archived.action == action
    assert archived.seat == 0
    assert archived.archived_by is not None
    assert archived.archived_by.action == AuditAction.MOVE_UNDO
    assert archived.archived_by.actor == owner
    event = Event.objects.filter(game=game).latest("id")
    assert event.type == "move_undone"
    assert event.payload["seat"] == 0
    assert event.payload["seq"] == archived.seq
    assert event.payload["to_act"] == 0
    assert event.seat_payloads == {}
    assert "action" not in event.payload  # nothing of the move is repeated

    # Play goes on from there: the same action again takes the archived move's seq.
    again = client.post(
        f"{url}actions", {"action": action, "version": view["version"]}, format="json"
    ).json()
    assert again["can_undo"] is True
    assert Move.objects.get(game=game, archived_at=None, seq=archived.seq).action == action


def test_a_stale_or_missing_version_is_refused_and_changes_nothing(
    two_people: tuple[Game, Client, Client], owner: Any, opponent: Any
) -> None:
    game, client, _other = two_people
    game = to_menu(
        game, {0: owner, 1: opponent}, random.Random(2), want=lambda g: plain_action(g, 0)
    )
    url = game_url(game)
    action = plain_action(game, 0)
    acted = client.post(
        f"{url}actions", {"action": action, "version": game.version}, format="json"
    ).json()
    stale = client.post(f"{url}undo", {"version": acted["version"] - 1}, format="json")
    assert stale.status_code == 409
    assert stale.json()["code"] == "version_conflict"
    missing = client.post(f"{url}undo", {}, format="json")
    assert missing.status_code == 400
    assert missing.json()["code"] == "invalid_request"
    view = client.get(url).json()
    assert view["version"] == acted["version"]
    assert view["can_undo"] is True
    assert not Move.objects.filter(game=game, archived_at__isnull=False).exists()


def test_a_scout_closes_the_window_and_the_refusal_names_15_5_2(
    two_people: tuple[Game, Client, Client], owner: Any, opponent: Any
) -> None:
    game, client, other = two_people
    game = to_menu(game, {0: owner, 1: opponent}, random.Random(3), want=lambda g: scout_path(g, 0))
    url = game_url(game)
    path = scout_path(game, 0)
    assert path is not None
    view = client.get(url).json()
    for action in path:
        view = client.post(
            f"{url}actions", {"action": action, "version": view["version"]}, format="json"
        ).json()
    state = kinds.of(game).load(Game.objects.get(pk=game.pk).snapshot)
    assert entry_reveals(state.log[-1])
    assert state.pending[-1][1] == "place"
    assert view["can_undo"] is False
    refused = client.post(f"{url}undo", {"version": view["version"]}, format="json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "undo_not_available"
    assert "15.5.2" in refused.json()["detail"]
    # Another seat may not take back anything of seat 0 (nor has anything of its own).
    theirs = other.post(f"{url}undo", {"version": view["version"]}, format="json")
    assert theirs.status_code == 409
    assert theirs.json()["code"] == "undo_not_available"
    assert client.get(url).json()["version"] == view["version"]


def test_another_seat_and_an_outsider_cannot_undo_a_player_s_action(
    two_people: tuple[Game, Client, Client],
    owner: Any,
    opponent: Any,
    outsider: Any,
    bearer: Bearer,
) -> None:
    game, client, other = two_people
    game = to_menu(
        game, {0: owner, 1: opponent}, random.Random(4), want=lambda g: plain_action(g, 0)
    )
    url = game_url(game)
    acted = client.post(
        f"{url}actions", {"action": plain_action(game, 0), "version": game.version}, format="json"
    ).json()
    theirs = other.post(f"{url}undo", {"version": acted["version"]}, format="json")
    assert theirs.status_code == 409
    assert theirs.json()["code"] == "undo_not_available"
    stranger = bearer(outsider).post(f"{url}undo", {"version": acted["version"]}, format="json")
    assert stranger.status_code == 403
    assert stranger.json()["code"] == "not_seated"
    assert client.get(url).json()["can_undo"] is True  # still the owner's to take back


def test_the_autopilot_s_move_cannot_be_taken_back(
    owner: Any, opponent: Any, bearer: Bearer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """P-79: a move the autopilot made when the player's time ran out closes the window,
    even one the rules would let the player take back (the autopilot is made to choose
    such an action here)."""
    game = to_menu(
        people_game(owner, opponent, "undo-api-5", turn_timeout_seconds=3600),
        {0: owner, 1: opponent},
        random.Random(5),
        want=lambda g: plain_action(g, 0),
    )
    client = bearer(owner)
    action = plain_action(game, 0)
    monkeypatch.setattr("games.services.timeouts.bots.choose", lambda *a, **k: dict(action))
    later = timezone.now() + timezone.timedelta(hours=2)
    assert services.turn_timeout_handle(game_id=game.pk, expected_version=game.version, now=later)
    last = Move.objects.filter(game=game, archived_at=None).latest("seq")
    assert last.actor_kind == ActorKind.AUTOPILOT
    assert last.action == action
    state = kinds.of(game).load(Game.objects.get(pk=game.pk).snapshot)
    assert undoable(state, 0)  # the rules alone would allow it
    view = client.get(game_url(game)).json()
    assert view["can_undo"] is False
    refused = client.post(f"{game_url(game)}undo", {"version": view["version"]}, format="json")
    assert refused.status_code == 409
    assert "15.5.2" in refused.json()["detail"]


def test_indulgence_and_new_eleusis_offer_no_undo(game: Game, owner: Any, bearer: Bearer) -> None:
    client = bearer(owner)
    view = client.get(game_url(game)).json()
    assert "can_undo" not in view
    refused = client.post(f"{game_url(game)}undo", {"version": view["version"]}, format="json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "undo_not_available"
    assert "Indulgence" in refused.json()["detail"]

    eleusis_client, eleusis = eleusis_game(owner, bearer)
    url = game_url(eleusis["id"])
    view = eleusis_client.get(url).json()
    assert "can_undo" not in view
    refused = eleusis_client.post(f"{url}undo", {"version": view["version"]}, format="json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "undo_not_available"
    assert Move.objects.filter(archived_at__isnull=False).count() == 0
