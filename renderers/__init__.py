"""Game renderers: engine views in, Pillow images out.

A renderer is a pair of pure functions of an engine's view, in the spirit of
python-chess's ``chess.svg``: keyword options, a colour table (:class:`Theme`),
no I/O.  A generic caller draws any game through the registry::

    from renderers import get_renderer, to_png

    renderer = get_renderer(engine.name)
    png = to_png(renderer.board(engine.view(state, None), names=names))
    mine = to_png(renderer.private(engine.view(state, seat), names=names))

Renderers import nothing from Discord, aiosqlite or ``storage``, and from
``bot`` only the engine view types (``bot.engines.*_views``,
``bot.engines.core``).  Rendering blocks: the bot calls it through
:class:`bot.rendering.RenderPool`, off the event loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from typing import Any, Protocol

from PIL import Image

from bot.engines.games import GAMES, class_name
from renderers.common import DEFAULT_THEME, Theme, to_png


class GameRenderer(Protocol):
    """How one game is drawn."""

    def board(
        self, view: Any, *, names: Sequence[str], theme: Theme = DEFAULT_THEME, lang: str = "en"
    ) -> Image.Image:
        """The public board from the channel's view (``view.me`` is ignored).

        ``names[seat]`` is the seat's display name; ``lang`` the language of
        the words drawn (issue 33: the channel's, or the reader's for a
        private view)."""
        ...

    def private(
        self, view: Any, *, names: Sequence[str], theme: Theme = DEFAULT_THEME, lang: str = "en"
    ) -> Image.Image:
        """What only one seat may see; ``view`` is that seat's view."""
        ...


def _renderer(game: str) -> GameRenderer:
    """``game``'s renderer: ``<Title>Renderer()`` of ``renderers.<game>``
    (the convention of :mod:`bot.engines.games`)."""
    renderer: GameRenderer = getattr(
        import_module(f"{__name__}.{game}"), class_name(game, "Renderer")
    )()
    return renderer


RENDERERS: dict[str, GameRenderer] = {game: _renderer(game) for game in GAMES}


class UnknownRenderer(LookupError):
    """No renderer is registered for that engine name."""


def get_renderer(name: str) -> GameRenderer:
    """The renderer for the engine called ``name``."""
    try:
        return RENDERERS[name]
    except KeyError:
        known = ", ".join(sorted(RENDERERS))
        raise UnknownRenderer(f"No renderer for {name!r} (renderers: {known}).") from None


__all__ = [
    "DEFAULT_THEME",
    "RENDERERS",
    "GameRenderer",
    "Theme",
    "UnknownRenderer",
    "get_renderer",
    "to_png",
]
