"""Who this process is, and how long the work it claims stays its own.

Several bot processes may share one PostgreSQL database (issue 20: shards
run by different processes).  Work that falls due on its own (timers, round
deadlines, deliveries a crash left behind) is not divided by shard: every
process runs the scheduler and the delivery sweep, and the database decides
who does each piece.  A process *claims* a row (``claimed_by`` = its id,
``lease_until`` = now + :data:`LEASE`), acts, and finishes the row only if
it still holds the claim; a process that died loses its claims when their
leases run out, and another process takes the work over.
"""

from __future__ import annotations

import os
import secrets
import socket

LEASE = 180.0
"""Seconds a claim lasts (issue 20: a crashed process's work is taken over
within its lease).  Longer than the scheduler's watchdog (``JOB_LIMIT``,
120 s), which stops and releases a job that runs longer, so a live process
never loses work it is still doing; and short enough that a delivery taken
over after a crash mid-post retries its post while Discord still
remembers the message's nonce ("a few minutes"), so the retry returns the
first message instead of posting a second."""

SWEEP_EVERY = 30.0
"""How often each process looks for deliveries that nobody holds: a
process that died after a move and before posting it, or mid-post."""


STRANDED_SWEEP_EVERY = 300.0
"""How often each process looks for running games that wait on a seat with
nothing due (issue 29: ``GameService.repair_stranded``), besides once at
start-up.  No change should leave one; the sweep is the net under any that
does, so a game never waits on nobody for longer than this."""


def process_id() -> str:
    """An id for this process's claims, unique among the processes sharing a
    database, and readable in the log and in the claim columns:
    ``host:pid:random``."""
    host = socket.gethostname().split(".")[0][:40] or "host"
    return f"{host}:{os.getpid()}:{secrets.token_hex(3)}"
