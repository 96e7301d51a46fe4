"""Every HTML page carries a Content-Security-Policy that its own markup satisfies (no
inline script, style or event handler, no eval for htmx), and production sends HSTS."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games.models import Game

pytestmark = pytest.mark.django_db


def _policy(response: Any) -> dict[str, list[str]]:
    header = response.get("Content-Security-Policy")
    assert header, f"no Content-Security-Policy on {response.request['PATH_INFO']}"
    policy: dict[str, list[str]] = {}
    for directive in header.split(";"):
        name, *values = directive.split()
        policy[name] = values
    return policy


class _InlineFinder(HTMLParser):
    """What a policy without 'unsafe-inline' would block in a page."""

    def __init__(self) -> None:
        super().__init__()
        self.blocked: list[str] = []
        self._script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script":
            kind = (names.get("type") or "text/javascript").lower()
            self._script = "src" not in names and "json" not in kind
        if tag == "style":
            self.blocked.append("<style>")
        for name, value in attrs:
            if name.startswith("on") or name == "style":
                self.blocked.append(f"{tag} {name}={value!r}")
            if name.startswith("hx-on") or (
                name in {"hx-vals", "hx-headers"} and "js:" in (value or "")
            ):
                self.blocked.append(f"{tag} {name} (needs eval)")
            if name in {"href", "src", "action"} and (value or "").lower().startswith(
                "javascript:"
            ):
                self.blocked.append(f"{tag} {name}={value!r}")

    def handle_data(self, data: str) -> None:
        if self._script and data.strip():
            self.blocked.append(f"inline script {data.strip()[:40]!r}")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = False


def _blocked(html: str) -> list[str]:
    finder = _InlineFinder()
    finder.feed(html)
    return finder.blocked


def _pages(game: Game) -> list[str]:
    return ["/", "/lobby/", f"/games/{game.pk}/", "/rules/", "/leaderboard/", "/accounts/login/"]


def test_every_page_has_a_strict_policy_it_satisfies(game: Game, owner: Any) -> None:
    client = Client()
    client.force_login(owner)
    for url in [*_pages(game), "/settings/", f"/players/{owner.username}/"]:
        response = client.get(url)
        assert response.status_code == 200, url
        policy = _policy(response)
        assert policy["default-src"] == ["'self'"], policy
        for directive in ("script-src", "style-src"):
            assert "'unsafe-inline'" not in policy.get(directive, []), (url, policy)
            assert "'unsafe-eval'" not in policy.get(directive, []), (url, policy)
        assert policy["object-src"] == ["'none'"]
        assert policy["frame-ancestors"] == ["'none'"]
        assert policy["base-uri"] == ["'self'"]
        assert _blocked(response.content.decode()) == [], url


def test_anonymous_pages_and_the_staff_pages_carry_it_too(game: Game, staff: Any) -> None:
    for url in _pages(game):
        response = Client().get(url)
        assert response.status_code == 200, url
        assert _policy(response)
        assert _blocked(response.content.decode()) == [], url
    client = Client()
    client.force_login(staff)
    for url in ("/staff/disputes/", "/admin/", "/api/v1/docs/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert _policy(response)
        blocked = _blocked(response.content.decode())
        if url == "/api/v1/docs/":  # drf-spectacular's page: its inline blocks carry the nonce
            nonce = next(v for v in _policy(response)["script-src"] if v.startswith("'nonce-"))
            assert response.content.decode().count(f'nonce="{nonce[7:-1]}"') == 2
            blocked = [b for b in blocked if not b.startswith(("<style>", "inline script"))]
        assert blocked == [], url


def test_htmx_is_configured_to_need_neither_eval_nor_inline_styles(game: Game) -> None:
    html = Client().get(f"/games/{game.pk}/").content.decode()
    start = html.index('name="htmx-config" content=\'') + len('name="htmx-config" content=\'')
    config = json.loads(html[start : html.index("'", start)])
    assert config["allowEval"] is False
    assert config["includeIndicatorStyles"] is False


def test_a_rate_limit_page_carries_no_javascript_link(settings: Any) -> None:
    settings.WEB_RATE_LIMITS = {**settings.WEB_RATE_LIMITS, "login": "1/min"}
    Client().post("/accounts/login/", {"username": "x", "password": "y"})
    refused = Client().post("/accounts/login/", {"username": "x", "password": "y"})
    assert refused.status_code == 429
    assert _blocked(refused.content.decode()) == []


ROOT = Path(__file__).resolve().parents[2]


def _production_setting(tmp_path: Path, name: str, **env: str) -> str:
    """A setting as production reads it, in a fresh interpreter with exactly this env."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("SECURE_", "DJANGO_"))}
    clean.update(
        {"INDULGENCE_VAR_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)},
        DJANGO_ENV="production",
        SECRET_KEY="x" * 50,
        **env,
    )
    code = f"from indulgence_site import settings as s; print(s.{name})"
    result = subprocess.run(
        [sys.executable, "-c", code], env=clean, capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_production_sends_hsts_configurably(tmp_path: Path) -> None:
    assert int(_production_setting(tmp_path, "SECURE_HSTS_SECONDS")) >= 31_536_000
    tuned = _production_setting(tmp_path, "SECURE_HSTS_SECONDS", SECURE_HSTS_SECONDS="600")
    assert int(tuned) == 600
