"""``python -m bot.bench`` (``make bench``): the benchmarks, :mod:`bot.tools.bench`.

The command keeps its name; the tool lives with the others in ``bot/tools/``,
apart from the core the bot runs, and importing this module imports nothing.
"""

if __name__ == "__main__":
    import sys

    from bot.tools.bench import main

    sys.exit(main())
