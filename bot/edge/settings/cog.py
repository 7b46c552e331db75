"""``/chaupal settings``: a server's defaults for Chaupal, for its moderators;
``/chaupal me``: each player's own notifications, for everyone.

Everyone with Manage Server, or the Chaupal moderator role the server
configured, may read and change the server's settings.  Values are checked
with the same parsers as lobby options (:mod:`bot.timekeeping`) and stored
with :class:`storage.timekeeping.SettingsStore`.  A player's own settings
(:class:`bot.notifications.Notifications`) are kept per user across servers
(:class:`storage.players.PlayerSettingsStore`), so ``/chaupal me`` works in
DMs too.  Every reply is ephemeral.
"""

from __future__ import annotations

import datetime
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.edge.languages import CHOSEN
from bot.edge.moderators import has_moderator_role
from bot.edge.refusals import refusing
from bot.edge.replies import reply
from bot.engines.core import GameError, excerpt
from bot.i18n import DEFAULT, LANGUAGES, N_, localize, t
from bot.notifications import (
    Notifications,
    format_quiet,
    parse_timezone,
    timezone_names,
    tzinfo_of,
)
from bot.server_settings import ServerSettings, server_settings, table_defaults
from bot.timekeeping import ClockRule, TableOptions, format_duration

if TYPE_CHECKING:
    from bot.edge.ports import Edge

log = logging.getLogger(__name__)

TIMEOUT_WORDS = {
    "substitute": N_(
        "Saved: when a clock runs out, the automatic player makes that move "
        "(three in a row, and the player is out)."
    ),
    "skip": N_(
        "Saved: when a clock runs out, the player passes where the game has a pass "
        "(elsewhere the automatic player moves)."
    ),
    "forfeit": N_("Saved: when a clock runs out, the player is out."),
}

SERVER_ONLY = N_("Chaupal's settings belong to a server; use this in one.")
APPS_LANGUAGE = N_("Discord's (your app's language)")
SERVERS_LOCALE = N_("Discord's (the server's language)")

DISCORDS = "discord"
"""The ``language`` choice that follows Discord's locale."""

NOT_ALLOWED = N_(
    "Only members with the Manage Server permission can change Chaupal's settings here."
)
NOT_ALLOWED_ROLE = N_(
    "Only members with the Manage Server permission or the {role} role can change "
    "Chaupal's settings here."
)


def describe(
    settings: ServerSettings, defaults: TableOptions, lang: str = DEFAULT, language: str = ""
) -> str:
    """``/chaupal settings show``: every setting, its value, and what new games get;
    ``language`` is the server's language as set (shown when given)."""
    base = ServerSettings()

    def mark(value: object, default: object) -> str:
        return t(lang, " (default)") if value == default else ""

    threads = "on" if settings.threads else "off"
    none = t(lang, "none")
    announcements = f"<#{settings.announcements}>" if settings.announcements is not None else none
    role = f"<@&{settings.moderator_role}>" if settings.moderator_role is not None else none
    lines = [
        t(lang, "**Chaupal settings for this server**"),
        (
            t(
                lang,
                "- `threads`: {value}{default}: each game is played in its own thread.",
                value=threads,
                default=mark(settings.threads, base.threads),
            )
            if settings.threads
            else t(
                lang,
                "- `threads`: {value}{default}: games are played in their channels.",
                value=threads,
                default=mark(settings.threads, base.threads),
            )
        ),
        f"- `clock`: {settings.clock}{mark(settings.clock, base.clock)}",
        f"- `timeout`: {settings.timeout}{mark(settings.timeout, base.timeout)}",
        f"- `reminder`: {settings.reminder}{mark(settings.reminder, base.reminder)}",
        t(
            lang,
            "- `substitute`: {value}{default}: the automatic player's level on a timeout "
            "and in a seat a person left.",
            value=settings.substitute,
            default=mark(settings.substitute, base.substitute),
        ),
        (
            t(
                lang,
                "- `takeback`: {value}{default}: players may take back their last move "
                "(tournaments only if they allow it).",
                value="on",
                default=mark(settings.takeback, base.takeback),
            )
            if settings.takeback
            else t(
                lang,
                "- `takeback`: {value}{default}: no game here takes a move back.",
                value="off",
                default=mark(settings.takeback, base.takeback),
            )
        ),
        f"- `announcements`: {announcements}",
        f"- `moderator_role`: {role}",
        *([f"- `language`: {language}"] if language else []),
        t(
            lang,
            "New games start with: {options} (a lobby's own options come first).",
            options=table_words(defaults, lang),
        ),
        t(lang, "Moderators change one with `/moderate settings <name>`."),
    ]
    return "\n".join(lines)


def _said(exc: Exception) -> str:
    """A refusal's sentence, a message (:class:`~bot.i18n.Msg`) when it is one."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, str) and len(exc.args) == 1 else str(exc)


def clock_words(rule: ClockRule, lang: str = DEFAULT) -> str:
    """:meth:`ClockRule.describe` (a message) in ``lang``."""
    return localize(rule.describe(), lang)


def table_words(options: TableOptions, lang: str = DEFAULT) -> str:
    """:meth:`TableOptions.describe` (a message) in ``lang``: the clock, the
    timeout policy and the reminders new games get."""
    return localize(options.describe(), lang)


def role_mention(role_id: int) -> str:
    return "<@&" + str(role_id) + ">"


def language_words(code: object, lang: str, discords: str) -> str:
    """A chosen language as the settings show it: its own name, or ``discords``
    (what following Discord's locale means there), translated."""
    if isinstance(code, str) and code in LANGUAGES:
        return LANGUAGES[code]
    return t(lang, discords)


THREADS_WORDS: dict[str, bool] = {
    **dict.fromkeys(("on", "yes", "true", "1"), True),
    **dict.fromkeys(("off", "no", "false", "0"), False),
}
"""What the ``threads`` setting reads (any case, blanks trimmed), as lobby options do."""

TURN_CHOICES = [
    app_commands.Choice(name=N_("channel ping"), value="ping"),
    app_commands.Choice(name=N_("DM"), value="dm"),
    app_commands.Choice(name=N_("both"), value="both"),
]
LANGUAGE_CHOICES = [
    *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()),
    app_commands.Choice(name=N_("Discord's"), value=DISCORDS),
]
"""``language:`` of ``/chaupal me`` and ``/moderate settings language``: each
language in its own words, or Discord's (the app's, or the server's, locale)."""

VIEW_CHOICES = [
    app_commands.Choice(name=N_("on: one DM per game, kept up to date"), value="on"),
    app_commands.Choice(name=N_("off: DMs only with a decision"), value="off"),
]

COMMON_ZONES = (
    "UTC",
    "Asia/Kolkata",
    "Asia/Karachi",
    "Asia/Dhaka",
    "Asia/Kathmandu",
    "Asia/Dubai",
    "Asia/Singapore",
    "Asia/Tokyo",
    "Europe/London",
    "Europe/Berlin",
    "Europe/Moscow",
    "Africa/Lagos",
    "Africa/Nairobi",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
    "America/Sao_Paulo",
    "Australia/Sydney",
    "Pacific/Auckland",
)
"""What the time zone list offers before anything is typed."""

MAX_CHOICES = 25
"""Discord shows at most this many autocomplete choices."""


def timezone_choices(typed: str) -> list[str]:
    """Time zone names matching what a player typed, best first, at most
    :data:`MAX_CHOICES`: names starting with it, then cities starting with
    it, then names containing it; an offset (``+05:30``) as written."""
    word = "_".join(str(typed).lower().split())
    if not word:
        return [z for z in COMMON_ZONES if z in timezone_names() or z == "UTC"][:MAX_CHOICES]
    names = timezone_names()
    starts = [n for n in names if n.lower().startswith(word)]
    cities = [
        n
        for n in names
        if "/" in n and n.rsplit("/", 1)[1].lower().startswith(word) and n not in starts
    ]
    seen = set(starts) | set(cities)
    inside = [n for n in names if word in n.lower() and n not in seen]
    found = starts + cities + inside
    if not found and word[:1] in "+-ug":
        try:
            found = [parse_timezone(typed)]
        except GameError:
            found = []
    return found[:MAX_CHOICES]


def describe_me(mine: Notifications, now: float, lang: str = DEFAULT, language: str = "") -> str:
    """``/chaupal me``: a player's own settings, and what they mean now;
    ``language`` is the language they chose, as shown (a line when given)."""
    base = Notifications()

    def mark(value: object, default: object) -> str:
        return t(lang, " (default)") if value == default else ""

    turn, reminders = mine.turn_words(lang), mine.reminder_words(lang)
    local = datetime.datetime.fromtimestamp(now, tzinfo_of(mine.timezone))
    if mine.quiet is None:
        quiet = t(lang, "none")
    elif mine.quiet_at(now):
        ends = datetime.datetime.fromtimestamp(mine.quiet_ends(now), local.tzinfo)
        quiet = t(
            lang,
            "{hours} your time: nobody pings you and no reminder comes (quiet now, until {ends})",
            hours=format_quiet(mine.quiet),
            ends=ends.strftime("%H:%M"),
        )
    else:
        quiet = t(
            lang,
            "{hours} your time: nobody pings you and no reminder comes",
            hours=format_quiet(mine.quiet),
        )
    lines = [
        t(lang, "**Your Chaupal notifications** (the same in every server and game)"),
        f"- `turn`: {turn}{mark(mine.turn, base.turn)}",
        f"- `reminders`: {reminders}{mark(mine.reminders, base.reminders)}",
        f"- `quiet`: {quiet}{mark(mine.quiet, base.quiet)}",
        t(
            lang,
            "- `timezone`: {timezone}{default}; your time now: {now}",
            timezone=mine.timezone,
            default=mark(mine.timezone, base.timezone),
            now=local.strftime("%H:%M"),
        ),
        t(
            lang,
            "- `views`: your hand or screen {words}{default}",
            words=mine.view_words(lang),
            default=mark(mine.views, base.views),
        ),
        *([f"- `language`: {language}"] if language else []),
        t(lang, "While you are away (`/game away`) nobody pings or reminds you."),
        t(lang, "Change them with `/chaupal me` and its options."),
    ]
    return "\n".join(lines)


# Not guild_only: ``/chaupal me`` works in DMs too; the server settings
# refuse there by themselves.
class ChaupalCog(
    commands.GroupCog,
    group_name="chaupal",
    group_description=N_("Chaupal's settings: this server's, and your own"),
):
    settings_group = app_commands.Group(
        name="settings", description=N_("This server's Chaupal settings")
    )

    def __init__(self, bot: Edge) -> None:
        self.bot = bot
        super().__init__()

    @settings_group.command(name="show", description=N_("Show this server's Chaupal settings"))
    async def show(self, itx: discord.Interaction[Any]) -> None:
        """Readable by every member: what new games here get is no secret.
        Changing them is ``/moderate settings``."""
        await self._show(itx)

    @refusing
    async def _show(self, itx: discord.Interaction[Any]) -> None:
        lang = await self.bot.languages.for_reader(itx)
        if itx.guild_id is None:
            await reply(itx, t(lang, SERVER_ONLY))
            return
        current = await server_settings(self.bot.server_settings, itx.guild_id)
        defaults = await table_defaults(self.bot.server_settings, itx.guild_id)
        chosen = (await self.bot.server_settings.get(itx.guild_id)).get(CHOSEN)
        language = language_words(chosen, lang, SERVERS_LOCALE)
        await reply(itx, describe(current, defaults, lang, language))

    # -- each player's own ------------------------------------------------------

    @app_commands.command(
        name="me", description=N_("Your own notifications, the same in every server: see or change")
    )
    @app_commands.describe(
        turn=N_("How you are told it is your turn"),
        reminders=N_("game (as each game says), off, or a delay like 6h (then one a day)"),
        quiet=N_("Quiet hours in your time zone, like 23:00-07:00, or off"),
        timezone=N_("Your time zone, like Asia/Kolkata or +05:30"),
        views=N_(
            "on: your hand or screen kept up to date in one DM per game; off: DMs only "
            "with a decision"
        ),
        language=N_("The language Chaupal answers you in (Discord's: your app's language)"),
    )
    @app_commands.choices(turn=TURN_CHOICES, views=VIEW_CHOICES, language=LANGUAGE_CHOICES)
    async def me(
        self,
        itx: discord.Interaction[Any],
        turn: app_commands.Choice[str] | None = None,
        reminders: str | None = None,
        quiet: str | None = None,
        timezone: str | None = None,
        views: app_commands.Choice[str] | None = None,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        given = {
            key: value
            for key, value in (
                ("turn", turn.value if turn is not None else None),
                ("reminders", reminders),
                ("quiet", quiet),
                ("timezone", timezone),
                ("views", views.value if views is not None else None),
                ("language", language.value if language is not None else None),
            )
            if value is not None
        }
        await self._me(itx, given)

    @refusing
    async def _me(self, itx: discord.Interaction[Any], given: dict[str, str]) -> None:
        service = self.bot.service
        languages = self.bot.languages
        language = given.pop("language", None)
        if language is not None:
            code = language if language in LANGUAGES else None
            await languages.choose_for_player(itx.user.id, code)
            log.info("user %d: language %s chosen", itx.user.id, code or "Discord's")
        lang = await languages.for_reader(itx)
        current = (await service.notifications([itx.user.id]))[itx.user.id]
        chosen = (await service.player_settings.get(itx.user.id)).get(CHOSEN)
        if not given:
            if language is not None:
                words = language_words(chosen, lang, APPS_LANGUAGE)
                await reply(
                    itx, t(lang, "Saved: Chaupal answers you in {language}.", language=words)
                )
                return
            shown = language_words(chosen, lang, APPS_LANGUAGE)
            await reply(itx, describe_me(current, service.now(), lang, shown))
            return
        try:
            changed = Notifications.parse(given, current)
        except GameError as exc:
            await reply(itx, t(lang, "{error} Nothing was changed.", error=_said(exc)))
            return
        stored = changed.to_json()
        await service.player_settings.update(
            itx.user.id, {key: stored[key] for key in given}, self.bot.clock()
        )
        log.info("user %d: notifications %s changed", itx.user.id, ", ".join(sorted(given)))
        said = t(lang, "Saved. {settings}", settings=changed.describe(lang))
        if changed.quiet is not None and changed.timezone == "UTC" and "timezone" not in given:
            said += "\n" + t(
                lang,
                "Your quiet hours are in UTC: set `timezone` to yours "
                "(like Asia/Kolkata) if you are elsewhere.",
            )
        await reply(itx, said)

    @me.autocomplete("timezone")
    async def _timezones(
        self, itx: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in timezone_choices(current)]


class ServerSettingsChanges:
    """Changing this server's settings: the bodies of ``/moderate
    settings …`` (:mod:`bot.edge.moderate.cog`), which Discord shows only to
    members with Manage Messages by default; each still checks Manage Server
    or the server's moderator role itself, since a server can show the
    commands to anyone."""

    def __init__(self, bot: Edge) -> None:
        self.bot = bot

    # -- who may ----------------------------------------------------------------

    async def _allowed(self, itx: discord.Interaction[Any]) -> ServerSettings | None:
        """The server's settings when the caller may change them; otherwise
        say why (ephemerally) and return None."""
        lang = await self.bot.languages.for_reader(itx)
        if itx.guild_id is None:
            await reply(itx, t(lang, SERVER_ONLY))
            return None
        current = await server_settings(self.bot.server_settings, itx.guild_id)
        if itx.permissions.manage_guild or has_moderator_role(itx, current.moderator_role):
            return current
        if current.moderator_role is not None:
            said = t(lang, NOT_ALLOWED_ROLE, role=role_mention(current.moderator_role))
        else:
            said = t(lang, NOT_ALLOWED)
        await reply(itx, said)
        return None

    async def _save(self, itx: discord.Interaction[Any], key: str, value: Any, said: str) -> None:
        assert itx.guild_id is not None
        await self.bot.server_settings.set(itx.guild_id, key, value, self.bot.clock())
        log.info("guild %d: setting %s changed by %d", itx.guild_id, key, itx.user.id)
        await reply(itx, said)

    # -- the commands -----------------------------------------------------------

    @refusing
    async def threads(self, itx: discord.Interaction[Any], value: Literal["on", "off"]) -> None:
        if await self._allowed(itx) is None:
            return
        lang = await self.bot.languages.for_reader(itx)
        # Discord offers only on/off, but a client may send any text: read the
        # words lobby options take for yes and no, refuse the rest.
        on = THREADS_WORDS.get(str(value).strip().lower())
        if on is None:
            await reply(
                itx,
                t(
                    lang,
                    "`threads` is `on` or `off` (also yes/no, true/false, 1/0), not "
                    "{typed}. Nothing was changed.",
                    typed=excerpt(value),
                ),
            )
            return
        said = (
            t(lang, "Saved: each new game gets its own thread.")
            if on
            else t(lang, "Saved: new games are played in their channels, without threads.")
        )
        await self._save(itx, "threads", on, said)

    @refusing
    async def takeback(self, itx: discord.Interaction[Any], value: Literal["on", "off"]) -> None:
        """Whether players may take a move back in this server's games, the
        running ones included (issue 31)."""
        if await self._allowed(itx) is None:
            return
        lang = await self.bot.languages.for_reader(itx)
        on = THREADS_WORDS.get(str(value).strip().lower())
        if on is None:
            await reply(
                itx,
                t(
                    lang,
                    "`takeback` is `on` or `off` (also yes/no, true/false, 1/0), not "
                    "{typed}. Nothing was changed.",
                    typed=excerpt(value),
                ),
            )
            return
        said = (
            t(
                lang,
                "Saved: players may take back their last move (alone until someone else acts, "
                "then if everyone agrees), except in games that say `takeback=no`.",
            )
            if on
            else t(
                lang,
                "Saved: no game on this server takes a move back any more, running games included.",
            )
        )
        await self._save(itx, "takeback", on, said)
        self.bot.service.settings_changed(itx.guild_id)

    @refusing
    async def clock(self, itx: discord.Interaction[Any], value: str) -> None:
        if await self._allowed(itx) is None:
            return
        lang = await self.bot.languages.for_reader(itx)
        try:
            rule = ClockRule.parse(value)
        except GameError as exc:
            await reply(itx, localize(_said(exc), lang))
            return
        if rule is None:
            await self._save(itx, "clock", "none", t(lang, "Saved: new games have no clock."))
            return
        await self._save(
            itx,
            "clock",
            rule.format(),
            t(lang, "Saved: new games get a clock of {clock}.", clock=clock_words(rule, lang)),
        )

    @refusing
    async def timeout(
        self, itx: discord.Interaction[Any], value: Literal["substitute", "skip", "forfeit"]
    ) -> None:
        if await self._allowed(itx) is None:
            return
        lang = await self.bot.languages.for_reader(itx)
        try:
            policy = TableOptions.parse({"timeout": value}).timeout
        except GameError as exc:
            await reply(itx, localize(_said(exc), lang))
            return
        await self._save(itx, "timeout", policy, t(lang, TIMEOUT_WORDS[policy]))

    @refusing
    async def reminder(self, itx: discord.Interaction[Any], value: str) -> None:
        if await self._allowed(itx) is None:
            return
        lang = await self.bot.languages.for_reader(itx)
        try:
            delay = TableOptions.parse({"reminder": value}).reminder
        except GameError as exc:
            await reply(itx, localize(_said(exc), lang))
            return
        if delay is None:
            await self._save(itx, "reminder", "off", t(lang, "Saved: new games send no reminders."))
            return
        if delay == "auto":
            await self._save(
                itx,
                "reminder",
                "auto",
                t(
                    lang,
                    "Saved: in new games, reminders follow the clock (at half the time left, and "
                    "shortly before the deadline when that is a day later; daily without a clock).",
                ),
            )
            return
        word = format_duration(delay)
        await self._save(
            itx,
            "reminder",
            word,
            t(
                lang,
                "Saved: in new games, players who must act are reminded after {delay}, "
                "then every day.",
                delay=word,
            ),
        )

    @refusing
    async def substitute(self, itx: discord.Interaction[Any], value: str) -> None:
        if await self._allowed(itx) is None:
            return
        lang = await self.bot.languages.for_reader(itx)
        try:
            level = TableOptions.parse({"substitute": value}).substitute
        except GameError as exc:
            await reply(itx, t(lang, "{error} Nothing was changed.", error=_said(exc)))
            return
        await self._save(
            itx,
            "substitute",
            level,
            t(
                lang,
                "Saved: in new games, the automatic player plays at level **{level}** when a "
                "clock runs out and in a seat a person left.",
                level=t(lang, level),
            ),
        )

    @refusing
    async def announcements(
        self, itx: discord.Interaction[Any], channel: discord.TextChannel | None = None
    ) -> None:
        if await self._allowed(itx) is None:
            return
        lang = await self.bot.languages.for_reader(itx)
        if channel is None:
            await self._save(
                itx, "announcements", None, t(lang, "Saved: no announcements channel.")
            )
            return
        await self._save(
            itx,
            "announcements",
            channel.id,
            t(lang, "Saved: announcements go to {channel}.", channel=channel.mention),
        )

    @refusing
    async def moderator_role(
        self, itx: discord.Interaction[Any], role: discord.Role | None = None
    ) -> None:
        if await self._allowed(itx) is None:
            return
        lang = await self.bot.languages.for_reader(itx)
        if role is None:
            await self._save(
                itx,
                "moderator_role",
                None,
                t(
                    lang,
                    "Saved: no moderator role; Manage Server (and, for games, Manage Messages) "
                    "still counts.",
                ),
            )
            return
        if role.is_default():
            await reply(
                itx, t(lang, "Pick a role other than {everyone}.", everyone="@\u200beveryone")
            )
            return
        await self._save(
            itx,
            "moderator_role",
            role.id,
            t(
                lang,
                "Saved: members with {role} can start, pause, resume and end games, "
                "kick players and change these settings.",
                role=role_mention(role.id),
            ),
        )

    @refusing
    async def language(self, itx: discord.Interaction[Any], value: str) -> None:
        """The language of what this server's channels read (lobbies, boards,
        narration); ``discord``: the server's own locale."""
        if await self._allowed(itx) is None:
            return
        assert itx.guild_id is not None
        code = value if value in LANGUAGES else None
        await self.bot.languages.choose_for_server(itx.guild_id, code)
        log.info("guild %d: language %s chosen by %d", itx.guild_id, code, itx.user.id)
        lang = await self.bot.languages.for_reader(itx)
        words = language_words(code, lang, SERVERS_LOCALE)
        await reply(
            itx, t(lang, "Saved: this server's games are posted in {language}.", language=words)
        )
