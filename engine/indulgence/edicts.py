"""The edict catalog: THE one table of the 20 edicts (shared/rules/edicts.md).

Change amounts or the deck here; rules code reads only this table. ``kind`` says how
an edict is scored (see :mod:`engine.indulgence.settlement`):

- ``any_family``, ``ranks``, ``even``, ``any_trump``: per card of ``cards`` taken
  (``any_trump``'s cards are the trump family the Ruler names);
- ``pairs``: per pair of same-rank cards of the two named families;
- ``last_of_family``: the taker of the trick holding the family's final card;
- ``first_last``: per first/last trick; ``first_to_three``: flat;
- ``no_tricks``: per trick (played face down); ``most_of_family``: per family where you
  have the most.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.cards import FAMILY_INDEX, FAMILY_MASKS, RANK_MASKS

FAIL_PENALTY = 8
"""What a failed sinner pays the Ruler (house: the same for every edict)."""

PAPAL_BULL_FAILURE = 18
"""What a failed papal-bull sinner pays the Ruler (rulebook)."""

PER_CARD_KINDS = frozenset({"any_family", "ranks", "even", "any_trump"})


class Edict(NamedTuple):
    """One edict card: its Edict side, its Sin side and its amounts."""

    catalog_index: int  # position in CATALOG
    id: str
    kind: str
    title: str
    families: tuple[str, ...]  # families the edict names (first-lead restriction)
    basic: bool
    edict_amount: int  # what each non-Ruler pays the Ruler, per unit taken
    sin_reward: int  # what each other player pays a successful sinner
    fail_penalty: int  # what a failed sinner pays the Ruler
    text: str  # the Edict side, one sentence
    sin_text: str  # the Sin side, one sentence
    unit: tuple[str, str]  # noun for one / several scoring units, for payment reasons
    cards: int  # scoring card set (0 when not card-based or decided by the trump)
    family_idx: tuple[int, ...]  # the named families as family indexes

    def as_dict(self) -> dict[str, object]:
        """The public description (api.md "edict")."""
        return {
            "id": self.id,
            "kind": self.kind,
            "title": self.title,
            "families": list(self.families),
            "edict_amount": self.edict_amount,
            "sin_reward": self.sin_reward,
            "fail_penalty": self.fail_penalty,
            "basic": self.basic,
            "text": self.text,
            "sin_text": self.sin_text,
        }


_EVEN = RANK_MASKS[2] | RANK_MASKS[4] | RANK_MASKS[6] | RANK_MASKS[8]


def _fam(*names: str) -> int:
    mask = 0
    for name in names:
        mask |= FAMILY_MASKS[FAMILY_INDEX[name]]
    return mask


# (id, kind, title, families, basic, edict amount, sin reward, text, sin text, unit, cards)
_ROWS: tuple[
    tuple[str, str, str, tuple[str, ...], bool, int, int, str, str, tuple[str, str], int], ...
] = (
    *(
        (
            f"any-{name}",
            "any_family",
            f"Don't take any {plural}",
            (name,),
            True,
            1,
            6,
            f"Each player but the Ruler pays the Ruler 1 florin for every {title} they take.",
            f"The sinner must take all 9 {plural}; then every other player pays them 6 florins.",
            (title, plural),
            _fam(name),
        )
        for name, title, plural in (
            ("borgia", "Borgia", "Borgias"),
            ("medici", "Medici", "Medicis"),
            ("orsini", "Orsini", "Orsinis"),
            ("sforza", "Sforza", "Sforzas"),
        )
    ),
    *(
        (
            f"last-{name}",
            "last_of_family",
            f"Don't take the last {title}",
            (name,),
            True,
            8,
            3,
            f"Whoever but the Ruler takes the trick holding the last {title} played"
            " pays the Ruler 8 florins.",
            f"The sinner must take the trick holding the last {title} played;"
            " then every other player pays them 3 florins.",
            (f"last {title}", f"last {title}"),
            _fam(name),
        )
        for name, title in (
            ("borgia", "Borgia"),
            ("medici", "Medici"),
            ("orsini", "Orsini"),
            ("sforza", "Sforza"),
        )
    ),
    (
        "twos-threes",
        "ranks",
        "Don't take any 2s or 3s",
        (),
        True,
        1,
        6,
        "Each player but the Ruler pays the Ruler 1 florin for every 2 or 3 they take.",
        "The sinner must take all eight 2s and 3s; then every other player pays them 6 florins.",
        ("2 or 3", "2s and 3s"),
        RANK_MASKS[2] | RANK_MASKS[3],
    ),
    (
        "sixes",
        "ranks",
        "Don't take any 6s",
        (),
        True,
        2,
        4,
        "Each player but the Ruler pays the Ruler 2 florins for every 6 they take.",
        "The sinner must take all four 6s; then every other player pays them 4 florins.",
        ("6", "6s"),
        RANK_MASKS[6],
    ),
    (
        "first-last",
        "first_last",
        "Don't take the first or last trick",
        (),
        True,
        4,
        4,
        "Whoever but the Ruler takes the first trick pays the Ruler 4 florins,"
        " and so does whoever takes the last.",
        "The sinner must take both the first and the last trick;"
        " then every other player pays them 4 florins.",
        ("trick", "tricks"),
        0,
    ),
    (
        "first-to-three",
        "first_to_three",
        "Don't be the first to take three tricks",
        (),
        True,
        6,
        3,
        "The first player to have taken three tricks pays the Ruler 6 florins,"
        " unless it is the Ruler.",
        "The sinner must be the first to take three tricks;"
        " then every other player pays them 3 florins.",
        ("first to three tricks", "first to three tricks"),
        0,
    ),
    (
        "most-of-family",
        "most_of_family",
        "Don't take the most of any family",
        (),
        False,
        2,
        6,
        "For each family, whoever but the Ruler took the most of it pays the Ruler 2 florins"
        " (the Ruler settles ties).",
        "The sinner must have the most of every family (settling ties);"
        " then every other player pays them 6 florins.",
        ("family", "families"),
        0,
    ),
    (
        "any-trump",
        "any_trump",
        "Don't take any trump",
        (),
        False,
        1,
        6,
        "The Ruler names a trump family; each player but the Ruler pays the Ruler 1 florin"
        " for every trump they take.",
        "The sinner must take all 9 trumps; then every other player pays them 6 florins.",
        ("trump", "trumps"),
        0,
    ),
    (
        "no-tricks",
        "no_tricks",
        "Don't take any tricks",
        (),
        False,
        1,
        10,
        "Cards are played face down; each player but the Ruler pays the Ruler 1 florin"
        " for every trick they take.",
        "The sinner must take every trick; then every other player pays them 10 florins.",
        ("trick", "tricks"),
        0,
    ),
    *(
        (
            f"pairs-{a}-{b}",
            "pairs",
            f"Don't take pairs of {ta}s and {tb}s",
            (a, b),
            False,
            2,
            10,
            "Each player but the Ruler pays the Ruler 2 florins for every rank"
            f" of which they took both the {ta} and the {tb}.",
            f"The sinner must take all nine pairs (all 18 {ta}s and {tb}s);"
            " then every other player pays them 10 florins.",
            ("pair", "pairs"),
            _fam(a, b),
        )
        for a, ta, b, tb in (
            ("borgia", "Borgia", "medici", "Medici"),
            ("orsini", "Orsini", "sforza", "Sforza"),
            ("medici", "Medici", "sforza", "Sforza"),
        )
    ),
    *(
        (
            f"even-{a}-{b}",
            "even",
            f"Don't take any even {ta}s or {tb}s",
            (a, b),
            False,
            1,
            6,
            f"Each player but the Ruler pays the Ruler 1 florin for every even {ta} or {tb}"
            " they take.",
            f"The sinner must take all eight even {ta}s and {tb}s;"
            " then every other player pays them 6 florins.",
            (f"even {ta} or {tb}", f"even {ta}s and {tb}s"),
            _fam(a, b) & _EVEN,
        )
        for a, ta, b, tb in (
            ("medici", "Medici", "sforza", "Sforza"),
            ("borgia", "Borgia", "orsini", "Orsini"),
        )
    ),
)

CATALOG: tuple[Edict, ...] = tuple(
    Edict(
        i,
        eid,
        kind,
        title,
        fams,
        basic,
        amount,
        reward,
        FAIL_PENALTY,
        text,
        sin_text,
        unit,
        cards,
        tuple(FAMILY_INDEX[name] for name in fams),
    )
    for i, (
        eid,
        kind,
        title,
        fams,
        basic,
        amount,
        reward,
        text,
        sin_text,
        unit,
        cards,
    ) in enumerate(_ROWS)
)
EDICT_INDEX: dict[str, int] = {e.id: e.catalog_index for e in CATALOG}
BASIC_DECK: tuple[int, ...] = tuple(e.catalog_index for e in CATALOG if e.basic)
EXPERT_DECK: tuple[int, ...] = tuple(e.catalog_index for e in CATALOG)


def deck_for(variant: str) -> tuple[int, ...]:
    """The edicts of a variant's deck, in catalog order (before shuffling)."""
    return EXPERT_DECK if variant == "expert" else BASIC_DECK


def scoring_cards(edict: Edict, trump: int | None) -> int:
    """The card set an edict scores, the trump family for ``any-trump``."""
    if edict.kind == "any_trump":
        return FAMILY_MASKS[trump] if trump is not None else 0
    return edict.cards


def named_families_mask(edicts: tuple[Edict, ...], trump: int | None) -> int:
    """Cards of every family the edicts name (the first-lead restriction)."""
    mask = 0
    for edict in edicts:
        for name in edict.families:
            mask |= FAMILY_MASKS[FAMILY_INDEX[name]]
        if edict.kind == "any_trump" and trump is not None:
            mask |= FAMILY_MASKS[trump]
    return mask
