"""The registry entry a game's renderer module declares (:class:`ViewRenderer`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image

from renderers.common.theme import DEFAULT_THEME, Theme


class ViewRenderer:
    """The registry entry for one game: its two drawing functions.

    A subclass names the game and gives the two (pure functions of a view,
    with ``names`` and ``theme`` keywords) as class keywords::

        class SangramRenderer(
            ViewRenderer, name="sangram", board=render_board, private=render_private
        ):
            ...
    """

    name: str
    draw_board: Callable[..., Image.Image]
    draw_private: Callable[..., Image.Image]
    draw_filled: Callable[..., Image.Image] | None
    """The board drawn to fill a given height (``height`` keyword), for a
    game whose board's height changes with the phase; ``None``: the board."""

    def __init_subclass__(
        cls,
        *,
        name: str,
        board: Callable[..., Image.Image],
        private: Callable[..., Image.Image],
        filled: Callable[..., Image.Image] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init_subclass__(**kwargs)
        cls.name = name
        cls.draw_board = staticmethod(board)
        cls.draw_private = staticmethod(private)
        cls.draw_filled = None if filled is None else staticmethod(filled)

    def board(
        self, view: Any, *, names: Sequence[str], theme: Theme = DEFAULT_THEME, lang: str = "en"
    ) -> Image.Image:
        return type(self).draw_board(view, names=names, theme=theme, lang=lang)

    def private(
        self, view: Any, *, names: Sequence[str], theme: Theme = DEFAULT_THEME, lang: str = "en"
    ) -> Image.Image:
        return type(self).draw_private(view, names=names, theme=theme, lang=lang)

    def filled_board(
        self,
        view: Any,
        *,
        names: Sequence[str],
        height: int,
        theme: Theme = DEFAULT_THEME,
        lang: str = "en",
    ) -> Image.Image:
        """The board for a canvas ``height`` tall (a replay's frame, sized
        for the game's tallest board): a game whose board grows and shrinks
        with the phase shows more where it has the room (Sangram); any
        other draws its board."""
        filled = type(self).draw_filled
        if filled is None:
            return self.board(view, names=names, theme=theme, lang=lang)
        return filled(view, names=names, theme=theme, height=height, lang=lang)
