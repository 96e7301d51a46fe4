"""Ratings: OpenSkill (Plackett-Luce) per player, game, variant and player count. A rated game
rates every distinct account at its table when it finishes; voiding or rewinding it rolls
its changes back. Lock order: the game, then the ratings (by id)."""

from __future__ import annotations

from typing import Any

from games.kinds.base import ranks
from games.models import Game, Rating, RatingChange


def ratings_update(game: Game, ranking: list[list[int]]) -> None:
    """OpenSkill (Plackett-Luce) update for every distinct account at the table, from the
    game's ranking (seats best first, ties sharing a place: the engine's common
    ``result["ranking"]``), in the pool of its game, variant and player count."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rank_of_seat = ranks(ranking)
    best_rank: dict[int, int] = {}
    for seat in game.seats.all():
        rank = rank_of_seat[seat.number]
        best_rank[seat.player_id] = min(rank, best_rank.get(seat.player_id, rank))
    player_ids = sorted(best_rank)
    ratings = []
    for player_id in player_ids:
        rating, _ = Rating.objects.select_for_update().get_or_create(
            player_id=player_id,
            game_type=game.game_type,
            variant=game.variant,
            player_count=game.player_count,
            defaults={"mu": model.mu, "sigma": model.sigma},
        )
        ratings.append(rating)
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    updated = model.rate(teams, ranks=[best_rank[p] for p in player_ids])
    for rating, [new] in zip(ratings, updated, strict=True):
        RatingChange.objects.create(
            game=game,
            rating=rating,
            mu_before=rating.mu,
            sigma_before=rating.sigma,
            mu_after=new.mu,
            sigma_after=new.sigma,
        )
        rating.mu, rating.sigma = new.mu, new.sigma
        rating.games += 1
        rating.save()


def ratings_roll_back(game: Game, now: Any) -> list[dict[str, Any]]:
    """Undo the game's rating changes still in force; called under the game's lock.

    A rating that no later rated game has changed gets exactly its ``mu_before`` and
    ``sigma_before`` back. When a later game changed it too, those later games are not
    re-rated (that would cascade through every opponent since); instead this game's own
    change is subtracted (mu and sigma each move back by their delta), which keeps the
    later games' effect. Each change is marked ``rolled_back_at``.
    """
    changes = list(
        RatingChange.objects.filter(game=game, rolled_back_at=None)
        .select_related("rating")
        .order_by("rating_id")
    )
    if not changes:
        return []
    ratings = {
        r.pk: r
        # Locked: another game finishing now may be rating the same players.
        for r in Rating.objects.select_for_update()
        .filter(pk__in=[c.rating_id for c in changes])
        .order_by("pk")
    }
    done = []
    for change in changes:
        rating = ratings[change.rating_id]
        later = (
            RatingChange.objects.filter(rating=rating, rolled_back_at=None, pk__gt=change.pk)
            .exclude(game=game)
            .exists()
        )
        before = {"mu": rating.mu, "sigma": rating.sigma}
        if later:
            rating.mu -= change.mu_after - change.mu_before
            rating.sigma = max(rating.sigma - (change.sigma_after - change.sigma_before), 1e-6)
        else:
            rating.mu, rating.sigma = change.mu_before, change.sigma_before
        rating.games = max(rating.games - 1, 0)
        rating.save(update_fields=["mu", "sigma", "games", "updated_at"])
        RatingChange.objects.filter(pk=change.pk).update(rolled_back_at=now)
        done.append(
            {
                "rating": rating.pk,
                "player": rating.player_id,
                "method": "delta" if later else "exact",
                "before": before,
                "after": {"mu": rating.mu, "sigma": rating.sigma},
            }
        )
    return done
