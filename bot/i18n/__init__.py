"""Every player's language (issue 33): the catalog (:mod:`bot.i18n.catalog`)
and, for translators, ``python -m bot.i18n report <code>`` and ``python -m
bot.i18n template``.  Pure: the edge asks whose language a text is in
(:mod:`bot.edge.languages`); this package only translates."""

from bot.engines.messages import Msg, Plural
from bot.i18n.catalog import (
    DEFAULT,
    LANGUAGES,
    N_,
    PSEUDO,
    catalog,
    is_supported,
    localize,
    normalize,
    pseudo,
    t,
    tn,
)

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "N_",
    "PSEUDO",
    "Msg",
    "Plural",
    "catalog",
    "is_supported",
    "localize",
    "normalize",
    "pseudo",
    "t",
    "tn",
]
