"""Component tables broken on purpose, shared by the engine tests of games
whose components are read from TOML."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.engines.core import ComponentError

Mutate = Callable[[dict[str, Any]], None]
"""A change to a component table, as read from TOML."""
Broken = list[tuple[str, Mutate, str]]
"""Cases of a broken table: (test id, a change to the default table, what
the refusal must say)."""


def parametrize_broken(cases: Broken) -> pytest.MarkDecorator:
    """Runs the test once per case, with its ``mutate`` and ``message``."""
    return pytest.mark.parametrize(
        ("mutate", "message"), [c[1:] for c in cases], ids=[c[0] for c in cases]
    )


def assert_refused(load_text: Callable[[str], object], text: str, message: str, file: str) -> None:
    """Loading ``text`` raises a ComponentError that names ``file`` first and
    says ``message``."""
    with pytest.raises(ComponentError) as info:
        load_text(text)
    error = str(info.value)
    assert message in error, error
    assert error.startswith(f"{file}: "), error
