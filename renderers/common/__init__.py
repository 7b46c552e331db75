"""Shared drawing kit for the game renderers.

Nothing here knows about Discord, storage or any game's rules.  The kit is
split by concept; each module imports only those above it:

- :mod:`~renderers.common.theme`: colours, :class:`Theme`, the seats' shapes.
- :mod:`~renderers.common.fonts`: the built-in font, the Noto fallback faces
  and what each covers, the emoji face.
- :mod:`~renderers.common.scripts`: grapheme clusters, runs of one font,
  right-to-left reading order, :func:`safe_text` and :func:`display_name`.
- :mod:`~renderers.common.measure`: text widths, cutting and wrapping.
- :mod:`~renderers.common.masks`: text rasterized into cached masks, emoji
  in colour.
- :mod:`~renderers.common.canvas`: :class:`Canvas` (every text goes through
  :meth:`Canvas.text`, held to a size readable on a phone) and the seats'
  marks.
- :mod:`~renderers.common.pieces`: dice, tokens, crown, elephant, cards.
- :mod:`~renderers.common.layout`: title bands, headings, seat panels and
  pills, badges, result headline, coordinates, side bars.
- :mod:`~renderers.common.tables`: legends and the ranked tables.
- :mod:`~renderers.common.renderer`: :class:`ViewRenderer`, a game's
  registry entry.
- :mod:`~renderers.common.output`: palette reduction and PNG encoding.

Libraries do the Unicode work that hand-written code did until issue 32:
fontTools reads each fallback face's character map
(:mod:`~renderers.common.fonts`), the ``regex`` module finds grapheme
clusters and python-bidi orders lines that mix right-to-left names with
English (:mod:`~renderers.common.scripts`).  Those modules' docstrings say
where a drawing changed and why; the 16 names of
``tests/renderers/test_scripts.py`` draw pixel for pixel as before on every
game's images, the leaderboard and the standings.

The names the renderers use are re-exported here, so ``from renderers.common
import Canvas`` works; the underscored helpers stay in their modules (shared
within this package, not outside it).
"""

from __future__ import annotations

from renderers.common.canvas import (
    MIN_TEXT_PX,
    PHONE_WIDTH,
    Canvas,
    TextRecord,
    mark,
    min_text_size,
    record_text,
    seat_marker,
    shape_marker,
)
from renderers.common.fonts import (
    CJK_FONTS,
    EMOJI_FONT,
    EMOJI_STAND_IN,
    FALLBACK_SCRIPTS,
    NOTO_DIR,
    font,
    has_glyph,
)
from renderers.common.layout import (
    BOARD_SIDES,
    badge_row,
    badges_width,
    board_coordinates,
    board_title,
    capture_badge,
    column_heading,
    edge_labels,
    fill_names,
    last_move_section,
    ordinal,
    private_band,
    private_heading,
    private_title,
    result_headline,
    seat_panel,
    seat_pill,
    seat_pill_width,
    section_heading,
    side_bar,
    title_band,
    turned_square,
)
from renderers.common.measure import cap_height, fit_choice, fit_text, text_width, wrap_text
from renderers.common.output import quantize, to_png
from renderers.common.pieces import (
    card_back,
    card_fan,
    crown,
    die_face,
    elephant,
    pips,
    token_chip,
)
from renderers.common.renderer import ViewRenderer
from renderers.common.scripts import display_name, graphemes, safe_text
from renderers.common.tables import (
    TABLE_BIG,
    TABLE_BODY,
    TABLE_FOOT_H,
    TABLE_HEAD_H,
    TABLE_HEAD_LINE,
    TABLE_MARGIN,
    TABLE_NOTE_H,
    TABLE_ROW_H,
    TABLE_SMALL,
    TABLE_SUBTITLE_H,
    TABLE_TITLE_H,
    TABLE_WIDTH,
    ColumnHead,
    LegendItem,
    legend,
    medal_colour,
    rank_badge,
    table_footnote,
    table_heads,
    table_note,
    table_stripe,
    table_title,
)
from renderers.common.theme import (
    DEFAULT_THEME,
    RGB,
    Box,
    MarkShape,
    SeatShape,
    Theme,
    blend,
    contrast,
    luminance,
)

__all__ = [
    "BOARD_SIDES",
    "CJK_FONTS",
    "DEFAULT_THEME",
    "EMOJI_FONT",
    "EMOJI_STAND_IN",
    "FALLBACK_SCRIPTS",
    "MIN_TEXT_PX",
    "NOTO_DIR",
    "PHONE_WIDTH",
    "RGB",
    "TABLE_BIG",
    "TABLE_BODY",
    "TABLE_FOOT_H",
    "TABLE_HEAD_H",
    "TABLE_HEAD_LINE",
    "TABLE_MARGIN",
    "TABLE_NOTE_H",
    "TABLE_ROW_H",
    "TABLE_SMALL",
    "TABLE_SUBTITLE_H",
    "TABLE_TITLE_H",
    "TABLE_WIDTH",
    "Box",
    "Canvas",
    "ColumnHead",
    "LegendItem",
    "MarkShape",
    "SeatShape",
    "TextRecord",
    "Theme",
    "ViewRenderer",
    "badge_row",
    "badges_width",
    "blend",
    "board_coordinates",
    "board_title",
    "cap_height",
    "capture_badge",
    "card_back",
    "card_fan",
    "column_heading",
    "contrast",
    "crown",
    "die_face",
    "display_name",
    "edge_labels",
    "elephant",
    "fill_names",
    "fit_choice",
    "fit_text",
    "font",
    "graphemes",
    "has_glyph",
    "last_move_section",
    "legend",
    "luminance",
    "mark",
    "medal_colour",
    "min_text_size",
    "ordinal",
    "pips",
    "private_band",
    "private_heading",
    "private_title",
    "quantize",
    "rank_badge",
    "record_text",
    "result_headline",
    "safe_text",
    "seat_marker",
    "seat_panel",
    "seat_pill",
    "seat_pill_width",
    "section_heading",
    "shape_marker",
    "side_bar",
    "table_footnote",
    "table_heads",
    "table_note",
    "table_stripe",
    "table_title",
    "text_width",
    "title_band",
    "to_png",
    "token_chip",
    "turned_square",
    "wrap_text",
]
