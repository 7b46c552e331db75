"""What Chaupal costs its players in attention (issue 30).

Issue 30 measures what a Discord user experiences, not the bot's internals:
a ping that Discord delivers and every new DM (a DM always notifies)
count as notifications; edits are silent.  This module plays whole games
through discord.py's real dispatch, with each table's default settings,
against a fake Discord that records every message the bot creates or
edits, and counts per player:

- **owed decisions**: each decision a person's seat owed (public, on the
  board, or private, by DM) and made, plus any that timed out;
- **notifications**: every new message whose content mentions them and
  whose ``allowed_mentions`` lets the mention through (in a channel or a
  thread; an ephemeral reply or an edit never notifies), and every new DM
  to them not sent silently (``SUPPRESS_NOTIFICATIONS``);
- **DMs without a decision**: new DMs to them with no menu, sent while
  their seat owed nothing (a "Your view of …" image after someone else's
  move);
- per game: the lobby message's edits, the lobby's text as first posted
  (as a rematch, with automatic players), boards posted or edited with
  choices while only automatic seats are awaited, and every new message
  and edit;
- for one person against automatic seats: their wait from each of their
  decisions until the bot awaits them again.

The games are played only with what the bot sent (a pick on the newest
board, or the newest DM or reply that shows a select), the way
``tests/bot/menu_player.py`` plays them; the bot's service is read only to
know who must act.  Time is a fake clock: automatic seats act when the
scheduler fires their ``clock`` timers (``AUTO_DELAY`` after they became
due), and people act at once, so no reminder ever falls due.  Automatic
players in games that hide something also pad each move to their level's
``THINK_PAD`` with a real ``asyncio.sleep``, outside the fake clock (off
here, as in the tests): each wait adds that pad once per automatic move
made in it, which is what one game's timers, fired one after another, cost
in real time.

``python -m bot.bench`` reports the figures (its ``attention`` section),
and ``tests/bot/test_attention.py`` holds the issue's targets against
them.  A tool like :mod:`bot.tools.loadtest`: it builds a whole bot and may use
the edge.
"""
