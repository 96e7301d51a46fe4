"""``/api/v1/``: mounted by ``indulgence_site/urls.py``.

Each endpoint answers at the address api.md gives and at the same address with the
other trailing slash (``/games/7/join`` and ``/games/7/join/``), so that a client never
meets a redirect it cannot follow with a POST body. Any other address under
``/api/v1/`` is a JSON 404 (``not_found``), whatever ``DEBUG`` says.
"""

from __future__ import annotations

from django.urls import URLPattern, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from games.api import schema as _schema  # noqa: F401  (registers the OpenAPI extensions)
from games.api import views, views_undo
from games.api.exceptions import api_not_found

app_name = "api"

# (route as api.md writes it, view, URL name)
ROUTES: list[tuple[str, type[views.ApiView], str]] = [
    ("game-types/", views.GameTypesView, "game-types"),
    ("games/", views.GamesView, "games"),
    ("games/<int:game_id>/", views.GameDetailView, "game"),
    ("games/<int:game_id>/join", views.GameJoinView, "game-join"),
    ("games/<int:game_id>/actions", views.GameActionsView, "game-actions"),
    ("games/<int:game_id>/abort", views.GameAbortView, "game-abort"),
    ("games/<int:game_id>/undo", views_undo.GameUndoView, "game-undo"),
    ("games/<int:game_id>/moves", views.GameMovesView, "game-moves"),
    ("games/<int:game_id>/export", views.GameExportView, "game-export"),
    ("games/<int:game_id>/disputes", views.GameDisputesView, "game-disputes"),
    ("leaderboard", views.LeaderboardView, "leaderboard"),
    ("me", views.MeView, "me"),
    ("tokens", views.TokensView, "tokens"),
    ("tokens/<int:token_id>", views.TokenDetailView, "token"),
]


def _other_slash(route: str) -> str:
    return route.removesuffix("/") if route.endswith("/") else f"{route}/"


urlpatterns: list[URLPattern] = []
for route, view, name in ROUTES:
    urlpatterns += [
        path(route, view.as_view(), name=name),
        path(_other_slash(route), view.as_view(alternate_route=True)),
    ]

urlpatterns += [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("schema", SpectacularAPIView.as_view()),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("docs", SpectacularSwaggerView.as_view(url_name="api:schema")),
    re_path(r"^.*$", api_not_found),
]
