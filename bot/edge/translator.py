"""The commands in every player's language (issue 33): the catalog's text for
each description and choice name Discord shows, sent with the commands when
they are synced (``description_localizations``, a choice's
``name_localizations``).

Command and option *names* stay English in every language: members share
instructions like ``/game play`` across languages, and Discord shows the
translated description beside the name.  So :class:`CatalogTranslator`
answers None for names (Discord then shows the English one).

Every description and fixed choice name in the cogs is marked with
``N_(...)`` where it is written; the few that come from elsewhere (the
games' titles, the automatic players' levels, the values Discord offers for
a ``Literal`` option) are marked below."""

from __future__ import annotations

from typing import Final

import discord
from discord import app_commands

from bot.i18n import DEFAULT, LANGUAGES, N_, PSEUDO, catalog, normalize

__all__ = ["CHOICE_WORDS", "CatalogTranslator"]

CHOICE_WORDS: Final = (
    # The games' titles (ENGINES' ``title``), offered by ``game:`` options.
    N_("Mahabharata"),
    N_("Martian Chaturaji"),
    N_("Sangram"),
    N_("Artaban"),
    N_("Kauda Baji"),
    # The languages' names (bot.i18n.LANGUAGES), each as the others call it.
    N_("English"),
    # The automatic players' levels (bot.players.LEVELS).
    N_("easy"),
    N_("medium"),
    N_("hard"),
    # ``Literal`` options' values, shown as their choices' names.
    N_("on"),
    N_("off"),
    N_("substitute"),
    N_("skip"),
    N_("forfeit"),
)
"""Choice names written outside the cogs' decorators, for the catalog."""

TRANSLATED: Final = frozenset(
    {
        app_commands.TranslationContextLocation.command_description,
        app_commands.TranslationContextLocation.group_description,
        app_commands.TranslationContextLocation.parameter_description,
        app_commands.TranslationContextLocation.choice_name,
    }
)
"""What Discord shows translated: descriptions and choice names (never
command, group or option names)."""


class CatalogTranslator(app_commands.Translator):
    """Descriptions and choice names from the catalog, for each language it has."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if context.location not in TRANSLATED:
            return None
        lang = normalize(locale)
        if lang in (DEFAULT, PSEUDO) or lang not in LANGUAGES:
            return None
        # Discord shows the English when a language lacks the text.
        return catalog().languages[lang].messages.get(string.message) or None
