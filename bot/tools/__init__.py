"""The tools: what measures, builds or shows the bot, apart from the core it runs.

``bench`` (speed figures, ``make bench``), ``loadtest`` (several bot
processes on one database), ``attention`` (what whole games cost their
players), ``demo`` (seeded games drawn offline, ``make demo``),
``build_engines`` (the engines compiled with mypyc, run by ``make``),
``strength`` (how strong the automatic players are), ``pairing_bench``
(the tournament pairings' timing, for the bench) and ``pgserver`` (a
throwaway PostgreSQL server, for the tests and the load test).  Their commands keep
their names through thin modules beside the core (``python -m bot.bench``,
``python -m bot.loadtest``, ``python -m bot.build_engines``, ``python -m
bot.players.strength``, and ``bot/demo.py`` for ``python -m bot demo``),
which import a tool only when it runs: the running bot imports none of
this package (``tests/bot/test_tools_apart.py``).
"""
