"""Server-rendered pages (HTMX partials)."""

from django.urls import include, path

from games import kinds
from games.mail_limits import invites_someone, mail_limited
from games.web import pages, profile_views, records, table_posts, views
from games.web.ratelimit import rate_limited

urlpatterns = [
    path("", views.home, name="home"),
    path("play-now", rate_limited("create")(views.play_now), name="play_now"),
    path("accounts/signup/", rate_limited("signup")(views.signup), name="signup"),
    path("language", views.language_set, name="language"),
    path("lobby/", views.lobby, name="lobby"),
    path(
        "games/new",
        rate_limited("create")(mail_limited("challenge", when=invites_someone)(views.game_create)),
        name="game_create",
    ),
    path("games/<int:game_id>/", views.game_table, name="table"),
    path("games/<int:game_id>/act", rate_limited("act")(views.game_act), name="act"),
    path("games/<int:game_id>/undo", rate_limited("act")(table_posts.game_undo), name="undo"),
    path("games/<int:game_id>/join", views.game_join, name="join"),
    path("games/<int:game_id>/history", records.game_history, name="history"),
    path("games/<int:game_id>/seen", table_posts.hand_seen, name="hand_seen"),
    path(
        "games/<int:game_id>/rematch",
        rate_limited("create")(mail_limited("challenge")(table_posts.game_rematch)),
        name="rematch",
    ),
    path("games/<int:game_id>/abort", table_posts.game_abort, name="abort"),
    path(
        "games/<int:game_id>/dispute", mail_limited("dispute")(views.game_dispute), name="dispute"
    ),
    path("games/<int:game_id>/replay", records.game_replay, name="replay"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("players/<str:username>/", rate_limited("profile")(profile_views.profile), name="profile"),
    path("rules/", views.rules_page, name="rules"),
    path("rules/<str:game_type>/", views.rules_page, name="rules_game"),
    path("settings/", profile_views.account_settings, name="settings"),
    # The email address, the notifications page and the bell (games/web/account_urls.py).
    path("", include("games.web.account_urls")),
]

# Each game's own addresses (its pages module's ``URLCONF``: New Eleusis' rule check and
# round verification), found through its kind: a new game adds its own.
for _kind in kinds.hosted():
    _conf = getattr(pages.of_kind(_kind), "URLCONF", None)
    if _conf:
        urlpatterns.append(path("", include(_conf)))
