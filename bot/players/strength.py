"""``python -m bot.players.strength``: how strong the automatic players are,
:mod:`bot.tools.strength`.

The command keeps its name; the measuring harness lives with the other tools
in ``bot/tools/``, and importing this module imports nothing.
"""

if __name__ == "__main__":
    import sys

    from bot.tools.strength import main

    sys.exit(main())
