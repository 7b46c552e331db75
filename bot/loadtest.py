"""``python -m bot.loadtest``: the load test of several bot processes on one
database, :mod:`bot.tools.loadtest`.

The command keeps its name; the tool lives with the others in ``bot/tools/``,
apart from the core the bot runs, and importing this module imports nothing.
"""

if __name__ == "__main__":
    import sys

    from bot.tools.loadtest.run import main

    sys.exit(main())
