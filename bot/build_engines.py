"""``python -m bot.build_engines`` (run by ``make``): the engines compiled with
mypyc, :mod:`bot.tools.build_engines`.

The command keeps its name; the tool lives with the others in ``bot/tools/``,
apart from the core the bot runs, and importing this module imports nothing.
"""

if __name__ == "__main__":
    import sys

    from bot.tools.build_engines import main

    sys.exit(main())
