"""The ends of things at the table: a hand that is over (the table pauses on it until the
player moves on) and a game that is over (standings and rating changes).

Which hand a player has moved on from is their browser session's business, not the
game's: ``hands_seen_remember`` keeps it in the session, and the table pauses on a
settled hand until then (``table.hand_over``). The game itself never waits for it.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext_lazy

from games import selectors

SESSION_KEY = "hands_seen"
SESSION_GAMES = 50  # games remembered per session; the oldest are forgotten first

PLACES = {
    1: gettext_lazy("1st"),
    2: gettext_lazy("2nd"),
    3: gettext_lazy("3rd"),
    4: gettext_lazy("4th"),
}


def place_label(place: int) -> str:
    return str(PLACES.get(place, place))


def hands_seen(request: HttpRequest, game_id: int) -> int:
    """The last hand of this game the player moved on from (0: none yet)."""
    seen = request.session.get(SESSION_KEY, {})
    value = seen.get(str(game_id), 0) if isinstance(seen, dict) else 0
    return value if isinstance(value, int) else 0


def hands_seen_remember(request: HttpRequest, game_id: int, hand: int) -> None:
    """The player moved on from hand ``hand`` of the game (never back to an earlier one)."""
    seen = request.session.get(SESSION_KEY)
    seen = dict(seen) if isinstance(seen, dict) else {}
    before = hands_seen(request, game_id)
    seen.pop(str(game_id), None)
    seen[str(game_id)] = max(hand, before)
    while len(seen) > SESSION_GAMES:  # dicts keep insertion order: drop the oldest
        seen.pop(next(iter(seen)))
    request.session[SESSION_KEY] = seen


def standings(game: Any, view: dict[str, Any], seats: list[dict[str, Any]]) -> dict[str, Any]:
    """Final standings of a finished game: place, florins and, for rated games, what the
    game did to each player's rating (mu - 3 sigma), best first. ``seats``: the table's
    seats (``table.table_context``), for the names and florins shown there."""
    result = view.get("result")
    if not result:
        return {"rows": [], "rated": False}
    places = selectors.places(result)
    changes = selectors.rating_changes(game=game) if game.rated else {}
    player_of = {seat.number: seat.player_id for seat in selectors.seats_of_game(game)}
    shown = {s["seat"]: s for s in seats}
    rows = []
    for seat, place in sorted(places.items(), key=lambda item: (item[1], item[0])):
        change = changes.get(player_of.get(seat, -1))
        rows.append(
            {
                "seat": seat,
                "place": place,
                "place_label": place_label(place),
                "name": shown[seat]["name"] if seat in shown else "",
                "is_me": seat == view.get("my_seat"),
                "florins": shown[seat]["florins"] if seat in shown else None,
                "rating_change": None if change is None else f"{change[1] - change[0]:+.2f}",
                "rating_after": None if change is None else f"{change[1]:.2f}",
            }
        )
    return {"rows": rows, "rated": bool(game.rated and changes)}
