# ruff: noqa: E501  (generated: one data-file sentence per line)
"""Every sentence of the Pax Illuminaten data file the pages show, marked for translation
(generated from ``engine.pax.loader.data()``: abilities, plot conditions, special events,
faction cards, the automa's plots; tests/web/test_pax_i18n.py checks it still matches).

The pages translate the data's English at run time (``games.web.pax_vocab``, P-85); this
list is only here so that ``makemessages`` keeps the sentences in the catalogue.
"""

from django.utils.translation import gettext_noop

PAX_MESSAGES = (
    gettext_noop("Influence ANY card, paying 1 less favor per other player's disk on it."),
    gettext_noop(
        "Choose two face-up cards on which no other player has more disks than you, and swap their places."
    ),
    gettext_noop(
        "Oust. Set your initial strength to 1 more or 1 less than your opponent's, your choice."
    ),
    gettext_noop("Take 2 favor from ANY one edict card into your supply."),
    gettext_noop(
        "Expel one card; then you may move 1 of your disks from ANY location onto the new card."
    ),
    gettext_noop(
        "Scout ANY card without paying favor. This turn, that card counts as adjacent when you Influence."
    ),
    gettext_noop(
        "Organize without paying: move up to 3 of your disks from ANY locations to ANY empty locations."
    ),
    gettext_noop("This turn, each disk you place by Influence costs 1 favor less, but at least 1."),
    gettext_noop("This turn, in your Ousts, neither player is favoured or underdog."),
    gettext_noop(
        "Draw a new plot card. Put either your old private plot or the new one on the bottom of the plot deck."
    ),
    gettext_noop("This turn, your Expel actions cost no favor."),
    gettext_noop("This turn, when you Scout, you gain the favor of the card you put down at once."),
    gettext_noop("Draw 2 cards from the deck, or take ANY 1 card from the Court."),
    gettext_noop("This turn, you may Extort ANY card and count all other players' disks as yours."),
    gettext_noop(
        "Take ANY faction card and use it this turn. At the start of the Check phase, put it back where it was."
    ),
    gettext_noop(
        "When chaining schemes, any card may join before or after this card, whatever the factions. Then collect this card's favor."
    ),
    gettext_noop(
        "You may take an extra main action this turn. Playing this card ends the scheme chain."
    ),
    gettext_noop(
        "Control, with at least 4 disks, at least 4 connected cards along the edge of the map."
    ),
    gettext_noop("Have disks on a card and on 3 cards of the same rank adjacent to it."),
    gettext_noop("Have at least 4 disks on Crown cards, and more than any other player."),
    gettext_noop(
        "Have disks on a group of at least 4 interior cards, each adjacent to at least 2 others."
    ),
    gettext_noop("Control Freemason cards of all the different factions."),
    gettext_noop("Control any 8/6/6 cards."),
    gettext_noop("Control at least 3/2/2 knight cards."),
    gettext_noop(
        "Have disks on every card of a lodge that runs without a break from the top of the map to the bottom."
    ),
    gettext_noop("Have your disks on at least 3/4/5 cards that hold another player's disk."),
    gettext_noop(
        '(seed: "Clergy", see R72) Control at least 3 cards holding at least 5 of your disks, and control more such cards than any other player.'
    ),
    gettext_noop("Control a lodge of at least 3 adjacent cards in the middle row."),
    gettext_noop("Control a lodge of at least 5 cards with at least 5 disks."),
    gettext_noop(
        "Control a lodge that links your placard with the placard of at least one other player."
    ),
    gettext_noop("Once per turn, the active player may pay any 5 favor for an extra main action."),
    gettext_noop("Every player may Influence ANY edge card as if it were adjacent."),
    gettext_noop(
        "Once per turn, the active player may look at another player's hand, or at another player's face-down plot card."
    ),
    gettext_noop(
        "When you Expel, you may expel a card that holds other players' disks. All of the opponents' disks must be placed on the new card."
    ),
    gettext_noop(
        "When any player Organizes, the disks of the chosen faction may move to ANY open slot on the map."
    ),
    gettext_noop(
        "A Freemason card may always join the scheme chain, even if no faction matches the previous card."
    ),
    gettext_noop("When Extorting, you may ignore Conspire and keep all the favor."),
    gettext_noop(
        "Once per turn, the active player may pay 3 favor of one faction for an extra main action."
    ),
    gettext_noop(
        "A Scout from a Rosicrucian card, an Influence onto a Rosicrucian card, or an Expel that places a Rosicrucian card does not use a main action."
    ),
    gettext_noop(
        "pay 1 NOB, then take an extra Influence on ANY face-up card, paying its slot costs as usual."
    ),
    gettext_noop(
        "take an extra Extort with no Whisper and no Conspire. It costs nothing, and the usual target rules apply."
    ),
    gettext_noop("pay 1 MAG, then take an extra Expel as usual."),
    gettext_noop(
        "pay 1 ART, then move up to 3 of your disks from ANY one card to ANY open slots you can use."
    ),
    gettext_noop(
        "pay 1 SCH, then take an extra Scout on ANY face-down card, with no matching cost."
    ),
    gettext_noop(
        "take an extra Oust; you may pay each targeted disk with 1 CLE instead of a matching favor."
    ),
    gettext_noop(
        "when your Influence puts the first disk on a card that held no disks, that disk costs 1 favor less, but at least 1."
    ),
    gettext_noop("your favor exchange is 2 of one faction for 1 unit, instead of 3 (2.2.5)."),
    gettext_noop("when you take Quick Favor, you may also use the card's ability."),
    gettext_noop("each of your ART favor tokens may pay any one requirement unit."),
    gettext_noop("your hand limit is 5 (R36: only in your own Redraw)."),
    gettext_noop(
        'in your Ousts, your opponent chooses and reveals each card first (7.6.5). The seed has 後悔 ("regret"), a typo for 公開 ("reveal").'
    ),
    gettext_noop("4 or more edicts discarded"),
    gettext_noop("controls a lodge of size 5 or more"),
    gettext_noop("8 or more disks on luminary cards"),
    gettext_noop("from round 2, some human has no disk on luminary cards"),
    gettext_noop("luminary deck run out 2 or more times"),
    gettext_noop("controls 5 or more FM-or-RC cards"),
    gettext_noop("controls 3 or more Crown-or-Ace cards"),
)
