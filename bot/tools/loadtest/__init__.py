"""A load test of several bot processes on one database (issue 20, phase 3;
its counts made able to fail in issue 29).

``python -m bot.loadtest`` starts a throwaway PostgreSQL server
(:mod:`bot.tools.pgserver`; or ``--database URL``), seeds it with live games
of all five games through :class:`~bot.service.GameService`, and for each N
of ``--processes`` starts N worker processes.  Each worker runs a real
:class:`~bot.edge.client.ChaupalBot` (its service, delivery and its sweep, the
timer and round schedulers, the keeper, the tournament director) over a
fake Discord HTTP layer that answers like Discord and writes every request
to a journal (JSON lines).  Worker *i* runs the shards ``s % N == i``.

**Players.** Simulated players in the coordinator (``--players`` asyncio
tasks) pick an untimed game, ask the worker that would receive the click
what the board shows (version, who must act, the legal moves and their menu
paths), choose one and click it: three in four on the board's button in the
game's channel, sent to the worker running the game's guild shard, one in
four on the last level of the seat's menu in a DM, sent to the worker
running shard 0 (which Discord delivers DMs on), so processes keep serving
games another process changed.  A click is an ``INTERACTION_CREATE``
payload handed to discord.py's own dispatch (``parse_interaction_create``,
what the gateway reader calls): the bot's dynamic item, ``Table.pick``, the
service, the reply through the interaction's webhook and the board's
delivery all run as in production.

**Racing players.** A ``--deadline-share`` of the games have a clock (a
bank, :data:`CLOCK`) under each timeout policy in turn (``substitute``,
``skip``, ``forfeit``; Chaturaji with four players, where a forfeit hands
the seat to the automatic player).  Every seat's bank is set to a few
seconds, so each game is a chain of deadlines during the run.  Nobody plays
these games but one racer each, which reads the awaited seat's deadline and
clicks its move so that the click lands while the timeout is being written
(:class:`Aim`): the timeout, fired by whichever process claimed the timer,
races the player's move, received by the process of the guild's shard (or
shard 0's).  While a worker handles a
clock timer, each of its game writes waits a random moment first
(``--timer-jitter``), as on a loaded machine, which widens the windows in
which a click can fall between two of a timeout's writes.

**The journals.** Besides every request to Discord, each worker journals,
*before* each write to a game's log returns, what it is about to write (the
entries, the version they are applied at, the click or timer it is for),
then whether the write returned, and every reply it sent to a click.  So a
process killed mid-move still leaves what it told its player, and the
checks compare actions (actor, action text, the version applied at) with
the log, not counts.

Mid-run one worker is killed with SIGKILL and started again on its shards.
After the players stop, the coordinator waits until no timer is overdue (at
most the grace the workers' lease, watchdog and retry settings allow, see
:func:`deadline_grace`), has the workers start no new clock job and finish
the ones under way, stops them, reads the database back and checks it
against the journals (see :data:`VIOLATIONS`); ``findings.json`` beside the
journals holds the games each count names.  The exit status is 1 when any
violation is not zero.

The claims' lease (180 s in production) is shortened to ``--lease`` in the
workers, the watchdog to two thirds of it and a failed timer's retry to
half of it, and the delivery sweep runs every few seconds, so that the work
a killed process held is taken over within the run.
"""
