"""The balance figures of the house luminaries (spec A.4), checked when the data loads.

The figures are data (``luminaries.json`` "balance"), so a printed set states its own or
none; each key present is checked, an unknown key is an error. Faction counts count a
card once for each faction it shows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from itertools import combinations
from typing import Any

from engine.pax.catalog import Ability, Luminary
from engine.pax.errors import PaxDataError

NONE_KEY = "-"
"""How the balance figures write "no affiliation"."""


def check_balance(
    file: str,
    balance: Mapping[str, Any],
    luminaries: Mapping[str, Luminary],
    abilities: Mapping[str, Ability],
    factions: tuple[str, ...],
) -> None:
    """Raise :class:`PaxDataError` at the first A.4 figure the cards break."""
    cards = list(luminaries.values())

    def fail(item: str, problem: str) -> None:
        raise PaxDataError(file, item, f"{problem} (A.4)")

    checks: dict[str, Callable[[Any], None]] = {
        "cards_per_faction": lambda want: _per_faction_rank(cards, factions, want, fail),
        "top_faction_cards": lambda want: _tops(cards, factions, want, fail),
        "pair_per_rank": lambda want: _pairs(cards, factions, want, fail),
        "ability_ranks": lambda want: _ability_ranks(cards, abilities, want, fail),
        "ability_min_factions": lambda want: _ability_factions(
            cards, abilities, balance.get("ability_ranks", ()), want, fail
        ),
        "strength_total": lambda want: _strength_total(cards, want, fail),
        "strength_per_rank": lambda want: _strength_per_rank(cards, want, fail),
        "strength_per_faction": lambda want: _strength_per_faction(cards, factions, want, fail),
        "strength_sum_per_faction": lambda want: _strength_sums(cards, factions, want, fail),
        "affiliation_total": lambda want: _affiliations(cards, "all cards", want, fail),
        "affiliation_per_faction": lambda want: _affiliations_per_faction(cards, want, fail),
        "knights_total": lambda want: _equal(
            "knights", sum(x.knight for x in cards), want, "knights", fail
        ),
        "knights_per_rank": lambda want: _knights(cards, "rank", want, fail),
        "knights_per_faction": lambda want: _knights(
            cards, "faction", dict.fromkeys(factions, want), fail
        ),
    }
    for key, want in balance.items():
        if key not in checks:
            raise PaxDataError(file, "balance", f"unknown balance figure '{key}'")
        try:
            checks[key](want)
        except (TypeError, KeyError, AttributeError, ValueError) as exc:
            if isinstance(exc, PaxDataError):
                raise
            raise PaxDataError(file, "balance", f"figure '{key}' is malformed: {exc!r}") from exc


Fail = Callable[[str, str], None]


def _equal(item: str, found: int, want: int, what: str, fail: Fail) -> None:
    if found != want:
        fail(item, f"{found} {what}, not {want}")


def _per_faction_rank(
    cards: list[Luminary], factions: tuple[str, ...], want: Mapping[str, int], fail: Fail
) -> None:
    for faction in factions:
        for rank, n in want.items():
            found = sum(1 for x in cards if x.rank == rank and faction in x.factions)
            _equal(faction, found, n, f"rank {rank} cards show it", fail)


def _tops(cards: list[Luminary], factions: tuple[str, ...], want: list[int], fail: Fail) -> None:
    low, high = want
    for faction in factions:
        found = sum(1 for x in cards if x.top == faction)
        if not low <= found <= high:
            fail(faction, f"top faction of {found} cards, not {low} to {high}")


def _pairs(
    cards: list[Luminary], factions: tuple[str, ...], want: Mapping[str, int], fail: Fail
) -> None:
    for rank, n in want.items():
        found = Counter(frozenset(x.factions) for x in cards if x.rank == rank)
        for pair in combinations(factions, 2):
            count = found[frozenset(pair)]
            if count != n:
                fail(f"rank {rank}", f"pair {pair[0]}/{pair[1]} is on {count} cards, not {n}")


def _ability_cards(
    cards: list[Luminary], abilities: Mapping[str, Ability], ranks: list[str]
) -> dict[str, list[Luminary]]:
    """The abilities carried by cards of these ranks, with all their cards."""
    out: dict[str, list[Luminary]] = {}
    for ident in abilities:
        carrying = [x for x in cards if x.ability == ident]
        if any(x.rank in ranks for x in carrying):
            out[ident] = carrying
    return out


def _ability_ranks(
    cards: list[Luminary], abilities: Mapping[str, Ability], want: list[str], fail: Fail
) -> None:
    for ident, carrying in _ability_cards(cards, abilities, want).items():
        ranks = sorted(x.rank for x in carrying)
        if ranks != sorted(want):
            fail(ident, f"its cards have ranks {ranks}, not one each of {want}")


def _ability_factions(
    cards: list[Luminary],
    abilities: Mapping[str, Ability],
    ranks: list[str],
    want: int,
    fail: Fail,
) -> None:
    for ident, carrying in _ability_cards(cards, abilities, ranks).items():
        shown = {f for x in carrying for f in x.factions}
        if len(shown) < want:
            fail(ident, f"its cards show {len(shown)} factions, fewer than {want}")


def _numbered(cards: list[Luminary]) -> list[Luminary]:
    return [x for x in cards if isinstance(x.strength, int)]


def _strength_total(cards: list[Luminary], want: Mapping[str, int], fail: Fail) -> None:
    found = Counter(x.strength for x in _numbered(cards))
    for strength, n in want.items():
        _equal(f"strength {strength}", found[int(strength)], n, "cards", fail)
    extra = sorted(set(found) - {int(s) for s in want})
    if extra:
        fail(f"strength {extra[0]}", "is not one of the balanced strengths")


def _strengths(cards: list[Luminary]) -> list[int]:
    return sorted({int(x.strength) for x in _numbered(cards)})


def _strength_per_rank(cards: list[Luminary], want: Mapping[str, int], fail: Fail) -> None:
    for rank, n in want.items():
        found = Counter(x.strength for x in _numbered(cards) if x.rank == rank)
        for strength in _strengths(cards):
            _equal(f"rank {rank}", found[strength], n, f"cards of strength {strength}", fail)


def _strength_per_faction(
    cards: list[Luminary], factions: tuple[str, ...], want: int, fail: Fail
) -> None:
    for faction in factions:
        found = Counter(x.strength for x in _numbered(cards) if faction in x.factions)
        for strength in _strengths(cards):
            _equal(faction, found[strength], want, f"cards of strength {strength}", fail)


def _strength_sums(cards: list[Luminary], factions: tuple[str, ...], want: int, fail: Fail) -> None:
    for faction in factions:
        total = sum(int(x.strength) for x in _numbered(cards) if faction in x.factions)
        _equal(faction, total, want, "strength in all", fail)


def _affiliations(cards: list[Luminary], item: str, want: Mapping[str, int], fail: Fail) -> None:
    found = Counter(x.affiliation or NONE_KEY for x in cards)
    for affiliation, n in want.items():
        _equal(item, found[affiliation], n, f"cards of affiliation {affiliation}", fail)


def _affiliations_per_faction(
    cards: list[Luminary], want: Mapping[str, Mapping[str, int]], fail: Fail
) -> None:
    for faction, figures in want.items():
        _affiliations([x for x in cards if faction in x.factions], faction, figures, fail)


def _knights(cards: list[Luminary], by: str, want: Mapping[str, int], fail: Fail) -> None:
    for key, n in want.items():
        group = [x for x in cards if (x.rank == key if by == "rank" else key in x.factions)]
        _equal(key, sum(x.knight for x in group), n, "knights", fail)
