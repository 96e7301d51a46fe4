"""Every hosted game as the lobby, the home page and "Play now" offer it (issue 24): its
title, player counts, variants and bots, its rules page, its create form and its "Play
now" game, read from the registry and each game's kind and pages module, so that a game
appears here by being hosted (``games.kinds``), with no list of games in the pages."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

from django.contrib.auth.models import User
from django.urls import reverse
from django.utils.translation import gettext as _

from games import bots, kinds, services
from games.web import pages, vocab


def game_type_of(raw: str | None) -> str:
    """A posted or asked-for game key, else the default game."""
    return raw if raw in kinds.KINDS else kinds.DEFAULT


def games() -> list[dict[str, Any]]:
    """Each hosted game with what a newcomer picks it by."""
    out = []
    for kind in kinds.hosted():
        meta = kind.meta
        plan = play_now_plan(kind)
        counts = list(meta.player_counts)
        out.append(
            {
                "key": kind.key,
                "default": kind.key == kinds.DEFAULT,
                "title": _(meta.title),
                "counts": _("%(low)s to %(high)s players") % {"low": counts[0], "high": counts[-1]}
                if len(counts) > 1
                else _("%(n)s players") % {"n": counts[0]},
                "variants": _(", ").join(kind.variant_title(v) for v in meta.variants),
                "bots": _(", ").join(
                    str(vocab.BOT_KINDS.get(b) or kind.bot_title(b))
                    for b in sorted(bots.available_kinds(kind.key))
                ),
                "rules_url": kind.rules_url(),
                "create_url": f"{reverse('lobby')}?game={kind.key}#create",
                "play_now": str(plan["label"]),
                "play_now_title": str(plan.get("title") or plan["label"]),
                "play_now_about": str(plan.get("about") or ""),
                "play_now_next": reverse("play_now")
                + ("" if kind.key == kinds.DEFAULT else f"?game={kind.key}"),
            }
        )
    return out


def play_now_plan(kind: kinds.GameKind) -> dict[str, Any]:
    """What "Play now" starts for a game: its pages' ``PLAY_NOW``, else (a game whose
    pages do not say) its default variant, 4 seats if it has them (else its fewest),
    its first bot kind in the others, unrated. ``label``: the button; ``title`` (the
    "Play now" page's title, default the label) and ``about`` (a sentence under it)."""
    plan = getattr(pages.of_kind(kind), "PLAY_NOW", None)
    if plan is not None:
        return dict(plan)
    meta = kind.meta
    count = 4 if 4 in meta.player_counts else min(meta.player_counts)
    return {
        "player_count": count,
        "variant": meta.default_variant,
        "bot": "",
        "options": {},
        "label": _("Play %(title)s now against %(n)s bots")
        % {"title": _(meta.title), "n": count - 1},
        "about": _("%(n)s players, you and %(bots)s bots, unrated, starting at once.")
        % {"n": count, "bots": count - 1},
    }


def play_now_game(user: User, game_type: str) -> Any:
    """The game "Play now" starts for ``user`` (:func:`play_now_plan`)."""
    kind = kinds.get(game_type)
    plan = play_now_plan(kind)
    available = sorted(bots.available_kinds(game_type))
    bot = plan["bot"] if plan["bot"] in available else available[0]
    count = plan["player_count"]
    fixed = {n for n, _bot in kind.fixed_bot_seats(count, plan["variant"])}  # P-78's automa
    return services.game_create(
        creator=user,
        game_type=game_type,
        player_count=count,
        variant=plan["variant"],
        bots=[(seat, bot) for seat in range(1, count) if seat not in fixed],
        rated=False,
        options=dict(plan["options"]) or None,
    )


def play_now_of(target: str) -> str | None:
    """The game a sign-up's ``next`` asks "Play now" to start (``/play-now?game=...``),
    or None when ``next`` is not "Play now"."""
    parts = urlsplit(target)
    if parts.path != reverse("play_now"):
        return None
    asked = parse_qs(parts.query).get("game") or [""]
    return game_type_of(asked[0])
