# ruff: noqa: E501  (generated: one engine sentence per line)
"""Every edict sentence the engine shows, marked for translation (generated from
engine.indulgence.edicts.CATALOG; tests/web/test_i18n.py checks it still matches).

The pages translate the engine's English at run time (games.web.vocab); this list is
only here so that ``makemessages`` puts the sentences into the catalogue.
"""

from django.utils.translation import gettext_noop

EDICT_MESSAGES = (
    gettext_noop("Don't take any Borgias"),
    gettext_noop("Each player but the Ruler pays the Ruler 1 florin for every Borgia they take."),
    gettext_noop(
        "The sinner must take all 9 Borgias; then every other player pays them 6 florins."
    ),
    gettext_noop("Don't take any Medicis"),
    gettext_noop("Each player but the Ruler pays the Ruler 1 florin for every Medici they take."),
    gettext_noop(
        "The sinner must take all 9 Medicis; then every other player pays them 6 florins."
    ),
    gettext_noop("Don't take any Orsinis"),
    gettext_noop("Each player but the Ruler pays the Ruler 1 florin for every Orsini they take."),
    gettext_noop(
        "The sinner must take all 9 Orsinis; then every other player pays them 6 florins."
    ),
    gettext_noop("Don't take any Sforzas"),
    gettext_noop("Each player but the Ruler pays the Ruler 1 florin for every Sforza they take."),
    gettext_noop(
        "The sinner must take all 9 Sforzas; then every other player pays them 6 florins."
    ),
    gettext_noop("Don't take the last Borgia"),
    gettext_noop(
        "Whoever but the Ruler takes the trick holding the last Borgia played pays the Ruler 8 florins."
    ),
    gettext_noop(
        "The sinner must take the trick holding the last Borgia played; then every other player pays them 3 florins."
    ),
    gettext_noop("Don't take the last Medici"),
    gettext_noop(
        "Whoever but the Ruler takes the trick holding the last Medici played pays the Ruler 8 florins."
    ),
    gettext_noop(
        "The sinner must take the trick holding the last Medici played; then every other player pays them 3 florins."
    ),
    gettext_noop("Don't take the last Orsini"),
    gettext_noop(
        "Whoever but the Ruler takes the trick holding the last Orsini played pays the Ruler 8 florins."
    ),
    gettext_noop(
        "The sinner must take the trick holding the last Orsini played; then every other player pays them 3 florins."
    ),
    gettext_noop("Don't take the last Sforza"),
    gettext_noop(
        "Whoever but the Ruler takes the trick holding the last Sforza played pays the Ruler 8 florins."
    ),
    gettext_noop(
        "The sinner must take the trick holding the last Sforza played; then every other player pays them 3 florins."
    ),
    gettext_noop("Don't take any 2s or 3s"),
    gettext_noop("Each player but the Ruler pays the Ruler 1 florin for every 2 or 3 they take."),
    gettext_noop(
        "The sinner must take all eight 2s and 3s; then every other player pays them 6 florins."
    ),
    gettext_noop("Don't take any 6s"),
    gettext_noop("Each player but the Ruler pays the Ruler 2 florins for every 6 they take."),
    gettext_noop("The sinner must take all four 6s; then every other player pays them 4 florins."),
    gettext_noop("Don't take the first or last trick"),
    gettext_noop(
        "Whoever but the Ruler takes the first trick pays the Ruler 4 florins, and so does whoever takes the last."
    ),
    gettext_noop(
        "The sinner must take both the first and the last trick; then every other player pays them 4 florins."
    ),
    gettext_noop("Don't be the first to take three tricks"),
    gettext_noop(
        "The first player to have taken three tricks pays the Ruler 6 florins, unless it is the Ruler."
    ),
    gettext_noop(
        "The sinner must be the first to take three tricks; then every other player pays them 3 florins."
    ),
    gettext_noop("Don't take the most of any family"),
    gettext_noop(
        "For each family, whoever but the Ruler took the most of it pays the Ruler 2 florins (the Ruler settles ties)."
    ),
    gettext_noop(
        "The sinner must have the most of every family (settling ties); then every other player pays them 6 florins."
    ),
    gettext_noop("Don't take any trump"),
    gettext_noop(
        "The Ruler names a trump family; each player but the Ruler pays the Ruler 1 florin for every trump they take."
    ),
    gettext_noop("The sinner must take all 9 trumps; then every other player pays them 6 florins."),
    gettext_noop("Don't take any tricks"),
    gettext_noop(
        "Cards are played face down; each player but the Ruler pays the Ruler 1 florin for every trick they take."
    ),
    gettext_noop("The sinner must take every trick; then every other player pays them 10 florins."),
    gettext_noop("Don't take pairs of Borgias and Medicis"),
    gettext_noop(
        "Each player but the Ruler pays the Ruler 2 florins for every rank of which they took both the Borgia and the Medici."
    ),
    gettext_noop(
        "The sinner must take all nine pairs (all 18 Borgias and Medicis); then every other player pays them 10 florins."
    ),
    gettext_noop("Don't take pairs of Orsinis and Sforzas"),
    gettext_noop(
        "Each player but the Ruler pays the Ruler 2 florins for every rank of which they took both the Orsini and the Sforza."
    ),
    gettext_noop(
        "The sinner must take all nine pairs (all 18 Orsinis and Sforzas); then every other player pays them 10 florins."
    ),
    gettext_noop("Don't take pairs of Medicis and Sforzas"),
    gettext_noop(
        "Each player but the Ruler pays the Ruler 2 florins for every rank of which they took both the Medici and the Sforza."
    ),
    gettext_noop(
        "The sinner must take all nine pairs (all 18 Medicis and Sforzas); then every other player pays them 10 florins."
    ),
    gettext_noop("Don't take any even Medicis or Sforzas"),
    gettext_noop(
        "Each player but the Ruler pays the Ruler 1 florin for every even Medici or Sforza they take."
    ),
    gettext_noop(
        "The sinner must take all eight even Medicis and Sforzas; then every other player pays them 6 florins."
    ),
    gettext_noop("Don't take any even Borgias or Orsinis"),
    gettext_noop(
        "Each player but the Ruler pays the Ruler 1 florin for every even Borgia or Orsini they take."
    ),
    gettext_noop(
        "The sinner must take all eight even Borgias and Orsinis; then every other player pays them 6 florins."
    ),
)
