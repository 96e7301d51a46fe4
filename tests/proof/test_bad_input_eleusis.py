"""Hostile input to New Eleusis' actions (issue 24): every ERL error of NE-21.10 in a
dealer's rule, hostile sources (deep nesting, far past 2,000 characters, control
characters, not a string), malformed actions of E37: a clear 400 with the engine's code
over the API and from the table's form, never a 500, and the game unchanged; the same
sources at the editor's rule check: a quick answer naming the problem."""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from django.test import Client as DjangoClient

from engine.eleusis.erl.errors import ERROR_CODES
from games import services
from games.models import Game
from tests.api.conftest import Bearer
from tests.api.support import assert_error, fingerprint, game_url
from tests.engine.eleusis.test_erl_errors import CASES
from tests.helpers import game_with_seed

pytestmark = pytest.mark.django_db

HOSTILE_SOURCES = {
    "parentheses 5,000 deep": "accept " + "(" * 5000 + "true" + ")" * 5000,
    "parentheses 900 deep within 2,000 characters": "accept " + "(" * 900 + "true" + ")" * 900,
    "not-chains 990 deep": "accept " + "not " * 990 + "true",
    "60,000 characters": "accept true " + "# " * 30000,
    "2,001 characters": "accept true" + " " * 1990,
    "a NUL byte": "accept card.red\x00",
    "right-to-left override": "accept card.red \u202e",
    "only a comment": "# accept everything",
    "empty": "",
    "a lone surrogate as JSON escape": "accept \ud800",
}
MALFORMED = {
    "source not a string": {"type": "set_rule", "source": 42},
    "source a list": {"type": "set_rule", "source": ["accept true"]},
    "source an object": {"type": "set_rule", "source": {"$ne": None}},
    "no source": {"type": "set_rule"},
    "extra field": {"type": "set_rule", "source": "accept true", "eval": "__import__('os')"},
    "free hint too long": {"type": "set_rule", "source": "accept card.red", "free_hint": "x" * 501},
    "unknown hint": {"type": "set_rule", "source": "accept card.red", "hints": [{"id": "H99"}]},
    "hints not a list": {"type": "set_rule", "source": "accept card.red", "hints": "H1"},
    "no-play policy unknown": {
        "type": "set_rule",
        "source": "accept card.red",
        "no_play_choice": "dealer's mood",
    },
    "library rule unknown": {"type": "library_rule", "id": "R99"},
    "library difficulty unknown": {"type": "library_rule", "difficulty": "impossible"},
    "a play now": {"type": "play", "cards": ["QH.1"]},
    "a type nobody knows": {"type": "nuke"},
}


@pytest.fixture
def dealing(owner: Any, opponent: Any, third: Any) -> Game:
    """A New Eleusis table waiting on its dealer, the owner (seat 0)."""
    game = game_with_seed(
        creator=owner,
        seed="deal-0",
        game_type="eleusis",
        player_count=4,
        rated=False,
        options={"hand_size": 4, "sanity_walks": 3},
        bots=[(3, "novice")],
    )
    services.game_join(game_id=game.pk, user=opponent)
    services.game_join(game_id=game.pk, user=third)
    game.refresh_from_db()
    assert game.to_act_seat == 0
    return game


def test_every_erl_error_is_a_400_naming_it_and_changes_nothing(
    dealing: Game, owner: Any, bearer: Bearer
) -> None:
    client = bearer(owner)
    before = fingerprint(dealing)
    codes = set()
    for name, source, code, _position in CASES:
        action = {"type": "set_rule", "source": source, "confirm_warnings": True}
        response = client.post(game_url(dealing, "actions"), {"action": action}, format="json")
        body = assert_error(response, 400, "illegal_action")
        assert body["reason"] == "rule_rejected", name
        assert f"({code} at line" in body["detail"], (name, body["detail"])
        codes.add(code)
        assert fingerprint(dealing) == before, name
    assert codes == set(ERROR_CODES)  # every code of NE-21.10 was met


@pytest.mark.parametrize("name", sorted(HOSTILE_SOURCES))
def test_a_hostile_rule_source_is_a_clear_400_over_the_api_and_from_the_table(
    name: str, dealing: Game, owner: Any, bearer: Bearer
) -> None:
    source = HOSTILE_SOURCES[name]
    action = {"type": "set_rule", "source": source, "confirm_warnings": True}
    before = fingerprint(dealing)
    raw = json.dumps({"action": action})  # ASCII: a lone surrogate travels as \ud800
    response = bearer(owner).post(
        game_url(dealing, "actions"), raw.encode(), content_type="application/json"
    )
    if len(raw) > 64 * 1024:
        assert_error(response, 413, "payload_too_large")
    else:
        body = assert_error(response, 400, "illegal_action")
        assert body["reason"] in ("rule_rejected", "bad_action"), body
    assert fingerprint(dealing) == before
    web = DjangoClient()
    web.force_login(owner)
    answer = web.post(
        f"/games/{dealing.pk}/act",
        {"action": json.dumps(action), "version": str(dealing.version)},
        HTTP_HX_REQUEST="true",
    )
    assert 400 <= answer.status_code < 500, (name, answer.status_code)
    assert fingerprint(dealing) == before


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_action_is_a_400_with_the_engines_code(
    name: str, dealing: Game, owner: Any, bearer: Bearer
) -> None:
    before = fingerprint(dealing)
    response = bearer(owner).post(
        game_url(dealing, "actions"), {"action": MALFORMED[name]}, format="json"
    )
    body = assert_error(response, 400, "illegal_action")
    assert body["reason"] in ("bad_action", "wrong_phase", "rule_rejected"), body
    assert fingerprint(dealing) == before


def test_an_eleusis_table_refuses_hostile_options_with_a_400(owner: Any, bearer: Bearer) -> None:
    for options in (
        {"hand_size": "14"},
        {"hand_size": 10**40},
        {"deadlines": {"turn": -1}},
        {"deadlines": "soon"},
        {"sanity_walks": 10**9},
        {"round_limit": 0},
        {"late_claims": True},
        {"bots": [True, True, True, True]},
        {"rated": True},
        {"x" * 10_000: 1},
    ):
        response = bearer(owner).post(
            "/api/v1/games/",
            {"game_type": "eleusis", "player_count": 4, "rated": False, "options": options},
            format="json",
        )
        assert_error(response, 400, "invalid_request")
    assert Game.objects.count() == 0


@pytest.mark.parametrize("name", sorted(HOSTILE_SOURCES))
def test_the_editors_rule_check_answers_a_hostile_source_quickly_and_changes_nothing(
    name: str, dealing: Game, owner: Any
) -> None:
    """The editor's check (issue 24 item 4, docs/eleusis.md OR47): every hostile source is
    a 200 naming the problem (or asking for a rule), within its CPU bound, never a 500."""
    web = DjangoClient()
    web.force_login(owner)
    before = fingerprint(dealing)
    started = time.process_time()
    source = HOSTILE_SOURCES[name]
    try:
        body = urlencode({"source": source})
    except UnicodeEncodeError:  # a lone surrogate: what a client can send is its bytes
        body = "source=" + quote(source.encode("utf-8", "surrogatepass"))
    answer = web.post(
        f"/games/{dealing.pk}/rule-check",
        body,
        content_type="application/x-www-form-urlencoded",
        HTTP_HX_REQUEST="true",
    )
    spent = time.process_time() - started
    assert answer.status_code == 200, (name, answer.status_code)
    text = answer.content.decode()
    assert 'role="alert"' in text or "Type a rule" in text, (name, text[:300])
    assert spent < 2.0, (name, spent)
    assert fingerprint(dealing) == before


def test_the_rule_check_refuses_what_is_not_one_rule(dealing: Game, owner: Any) -> None:
    web = DjangoClient()
    web.force_login(owner)
    check = f"/games/{dealing.pk}/rule-check"
    several = web.post(check, {"source": ["accept card.red", "accept true"]})
    assert several.status_code == 200  # the last one is read, as Django's forms do
    huge = web.post(check, {"source": "x" * (3 * 1024 * 1024)})
    assert huge.status_code == 400  # DATA_UPLOAD_MAX_MEMORY_SIZE
    assert web.get(check).status_code == 405
    assert web.post("/games/999999/rule-check", {"source": "accept true"}).status_code == 404
