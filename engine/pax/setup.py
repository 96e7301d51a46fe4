"""Set-up of a game from its seed (spec 3.1, 3.2, 3.3, 14.2; record shape H.3, H.4).

``new_setup(player_count, variant, seed)`` runs the 15 steps of 3.2 and returns an
immutable :class:`Setup`; ``setup_record`` gives its JSON (the record's ``settings``,
``data``, ``seed``, ``seats`` and ``setup``). Every shuffle is a labelled stream of the
seed (:mod:`engine.pax.rng`). Seats are 0 to N-1 (H.1); the automa, if any, is seat N-1
(R12). Which user sits where is the server's business: :func:`seating` gives the random
order of R12 when the host sets none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.pax.catalog import PaxData
from engine.pax.geometry import Pos
from engine.pax.loader import data as packaged_data
from engine.pax.rng import seed_commitment, shuffled

STANDARD = "standard"
AUTOMA_PREFIX = "automa-"
PLACARD = "placard"


class SetupError(ValueError):
    """A game that cannot be set up (an unknown player count or variant)."""


def variants(d: PaxData | None = None) -> tuple[str, ...]:
    """The variants of H.2: ``standard`` first, then one ``automa-<bot>`` per bot."""
    d = d or packaged_data()
    return (STANDARD, *(AUTOMA_PREFIX + bot for bot in d.bots))


@dataclass(frozen=True)
class SeatSetup:
    """One seat after set-up. ``favor`` is in faction order (2.1)."""

    seat: int
    automa: str | None
    placard: Pos
    facing: int
    contact: str
    hand: tuple[str, ...]
    plot: str | None
    favor: tuple[int, ...]
    disks: int


@dataclass(frozen=True)
class Setup:
    """The table after 3.2 step 15, before round 1 (H.4). Piles list their top first."""

    players: int
    variant: str
    automa: str | None
    layout: str
    commitment: str
    map: tuple[tuple[Pos, str], ...]
    court: tuple[str, ...]
    chamberlain: int
    deck: tuple[str, ...]
    pool: tuple[int, ...]
    seats: tuple[SeatSetup, ...]
    start_seat: int
    cube_supply: int
    faction_display: tuple[str, ...]
    faction_box: tuple[str, ...]
    public_plots: tuple[str, ...]
    plot_deck: tuple[str, ...]
    event_deck: tuple[str, ...]
    event_box: tuple[str, ...]
    automa_token: str | None


def seating(seed: str, humans: int) -> tuple[int, ...]:
    """R12 with no order from the host: entry i is the join-order index of the human in
    seat i. The automa, if any, always takes the seat after them."""
    return shuffled(seed, "seats", tuple(range(humans)))


def _automa(variant: str, d: PaxData) -> str | None:
    """The automa of a variant (H.2), or None for ``standard``."""
    if variant not in variants(d):
        raise SetupError(f"Unknown variant '{variant}': choose one of {list(variants(d))}.")
    return None if variant == STANDARD else variant.removeprefix(AUTOMA_PREFIX)


def _take(pile: list[str], n: int) -> tuple[str, ...]:
    """The top ``n`` cards of a pile, removed from it."""
    taken = tuple(pile[:n])
    del pile[:n]
    return taken


def new_setup(player_count: int, variant: str, seed: str, *, data: PaxData | None = None) -> Setup:
    """Set up a game of ``player_count`` seats, the automa included (3.1, 3.2, 14.2)."""
    d = data or packaged_data()
    if player_count not in d.by_players:
        raise SetupError(
            f"A game has {', '.join(map(str, d.player_counts))} seats, not {player_count}."
        )
    automa = _automa(variant, d)
    values = d.by_players[player_count]
    layout = d.layouts[values.layout]
    humans = player_count - (automa is not None)
    rules = d.setup

    # 1-3. Luminary deck, the map in reading order, the Court.
    deck = list(shuffled(seed, "lum/initial", tuple(d.luminaries)))
    table_map = tuple(zip(layout.positions, _take(deck, len(layout.positions)), strict=True))
    court = _take(deck, rules["court_slots"])
    # 4-5. The Chamberlain on slot 1 (index 0); the pool.
    pool = dict.fromkeys(d.faction_codes, values.pool_favor)
    # 6-7. Seats (Appendix F); 4 cards to each human, seat by seat.
    hands = [_take(deck, rules["hand_size"]) if s < humans else () for s in range(player_count)]
    # 8-10. Contacts, starting favor, starting player.
    contacts = shuffled(seed, "contacts", tuple(d.contacts))[:player_count]
    favors = []
    for contact in contacts:
        gained = d.contacts[contact].factions
        for faction in gained:
            pool[faction] -= rules["starting_favor_per_contact_faction"]
        favors.append(
            tuple(
                rules["starting_favor_per_contact_faction"] if f in gained else 0
                for f in d.faction_codes
            )
        )
    start_seat = min(range(player_count), key=lambda s: d.contacts[contacts[s]].number)
    # 12. Faction cards.
    factions = shuffled(seed, "factions", tuple(d.faction_cards))
    display, box = factions[: values.faction_display], factions[values.faction_display :]
    # 13-14. Public plots, one private plot per human, the plot deck.
    plot_pile = list(shuffled(seed, "plots", tuple(d.plots)))
    public = _take(plot_pile, rules["public_plots"])
    plots = [
        _take(plot_pile, rules["private_plots_per_human"]) if s < humans else ()
        for s in range(player_count)
    ]
    # 15. The event deck: packet A on packet B; the last specials go to the box.
    event_deck, event_box = _event_deck(seed, d)

    seats = tuple(
        SeatSetup(
            seat=s,
            automa=automa if s == humans else None,
            placard=place.placard,
            facing=place.facing,
            contact=contacts[s],
            hand=hands[s],
            plot=plots[s][0] if plots[s] else None,
            favor=favors[s],
            disks=d.components["disks_per_player"],
        )
        for s, place in enumerate(layout.seats(player_count))
    )
    return Setup(
        players=player_count,
        variant=variant,
        automa=automa,
        layout=layout.id,
        commitment=seed_commitment(seed),
        map=table_map,
        court=court,
        chamberlain=0,
        deck=tuple(deck),
        pool=tuple(pool.values()),
        seats=seats,
        start_seat=start_seat,
        cube_supply=d.components["bonus_cubes"],
        faction_display=display,
        faction_box=box,
        public_plots=public,
        plot_deck=tuple(plot_pile),
        event_deck=event_deck,
        event_box=event_box,
        automa_token=PLACARD if automa is not None else None,
    )


def _event_deck(seed: str, d: PaxData) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """3.2 step 15 and R14: (the event deck, the specials set aside)."""
    edicts = shuffled(seed, "events/edicts", tuple(d.edicts))
    specials = shuffled(seed, "events/specials", tuple(d.specials))
    per_edicts, per_specials = d.setup["edicts_per_packet"], d.setup["specials_per_packet"]
    deck: tuple[str, ...] = ()
    for index, label in enumerate(("events/packetA", "events/packetB")):
        packet = (
            edicts[index * per_edicts : (index + 1) * per_edicts]
            + specials[index * per_specials : (index + 1) * per_specials]
        )
        deck += shuffled(seed, label, packet)
    return deck, specials[2 * per_specials :]


def setup_record(setup: Setup, *, data: PaxData | None = None) -> dict[str, Any]:
    """The record's opening keys for this set-up (H.3, H.4), JSON-serialisable.

    ``seed.value`` is null: the seed is published only when the game is over (15.3.1).
    The pool, disks and Chamberlain follow from ``settings`` and ``seats`` (H.4).
    """
    d = data or packaged_data()
    return {
        "format": "pax-record/1",
        "settings": {
            "variant": setup.variant,
            "players": setup.players,
            "automa": setup.automa,
            "layout": setup.layout,
            "round_cap": None,
        },
        "data": {"id": d.data_id, "version": d.version},
        "seed": {"commitment": setup.commitment, "value": None},
        "seats": [
            {
                "seat": s.seat,
                "automa": s.automa,
                "placard": list(s.placard),
                "facing": s.facing,
                "contact": s.contact,
            }
            for s in setup.seats
        ],
        "setup": {
            "map": [{"pos": list(pos), "card": card, "face_up": False} for pos, card in setup.map],
            "court": list(setup.court),
            "hands": [list(s.hand) for s in setup.seats],
            "start_seat": setup.start_seat,
            "faction_display": list(setup.faction_display),
            "faction_box": list(setup.faction_box),
            "public_plots": list(setup.public_plots),
            "private_plots": [s.plot for s in setup.seats],
            "deck": list(setup.deck),
            "event_deck": list(setup.event_deck),
            "plot_deck": list(setup.plot_deck),
            "event_box": list(setup.event_box),
        },
    }
