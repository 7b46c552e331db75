"""The project carries its own documents, and they stay true.

- No file in the repository points at notes outside it (the rulings and the
  founding design used to live in a sibling folder a clone does not have).
- Every engine has its full rules page (``docs/rules/<name>.md``) and the
  short summary ``/game rules`` shows (``bot/engines/data/<name>.rules.md``),
  which must fit in one ephemeral Discord message.
- Every rule number a rules test cites (``test_R7_...``) exists in that
  game's rules page.
- Every relative link in the README and in ``docs/`` leads to a file.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

from bot.engines import ENGINES

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RULES = DOCS / "rules"
SUMMARIES = ROOT / "bot" / "engines" / "data"
SUMMARY_LIMIT = 1900
"""``/game rules`` answers in one message; Discord's limit is 2,000."""

# Spelled in pieces so that this file does not contain what it looks for.
_SIBLING = "sha" + "red"
FORBIDDEN = (
    "../" + _SIBLING,
    _SIBLING + "/rules",
    _SIBLING + "/seeds",
    _SIBLING + "/ARCHITECTURE",
)


def _repository_files() -> list[Path]:
    """Tracked files, plus new files git would pick up (not ignored), so a
    document written but not yet added is checked too."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    names = sorted({name for name in listed.decode("utf-8").split("\0") if name})
    return [ROOT / name for name in names if (ROOT / name).is_file()]


def _text(path: Path) -> str | None:
    """The file's text, or None for a binary file."""
    data = path.read_bytes()
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def test_no_file_points_outside_the_repository() -> None:
    files = _repository_files()
    assert files, "git listed no files"
    offenders: list[str] = []
    for path in files:
        text = _text(path)
        if text is None:
            continue
        for lineno, line in enumerate(text.splitlines(), 1):
            for needle in FORBIDDEN:
                if needle in line:
                    offenders.append(f"{path.relative_to(ROOT)}:{lineno}: {needle}")
    assert not offenders, "files refer to documents outside the repository:\n" + "\n".join(
        offenders
    )


engines = pytest.mark.parametrize("name", sorted(ENGINES))


@engines
def test_every_engine_has_a_rules_page(name: str) -> None:
    page = RULES / f"{name}.md"
    assert page.is_file(), f"{name} has no full rules page at docs/rules/{name}.md"
    assert _rule_numbers(page.read_text(encoding="utf-8")), f"{page.name} numbers no rules"


@engines
def test_every_engine_has_a_short_rules_summary(name: str) -> None:
    summary = SUMMARIES / f"{name}.rules.md"
    assert summary.is_file(), f"{name} has no /game rules summary"
    text = summary.read_text(encoding="utf-8")
    assert len(text) < SUMMARY_LIMIT, f"{summary.name} has {len(text)} characters"
    # The player sees no repository: the summary points at the button that
    # attaches the complete rules, and at their glossary.
    assert "**Complete rules**" in text and "glossary" in text, summary.name
    assert not re.search(r"\b(docs|bot|tests)/|\.md\b|repository", text), (
        f"{summary.name} points at a path in the repository"
    )


PACKAGED_RULES = SUMMARIES / "rules"
"""The copy of ``docs/rules`` the bot ships and reads at run time (package
data: a non-editable install has no ``docs/``)."""


@engines
def test_the_packaged_complete_rules_are_the_rules_pages(name: str) -> None:
    """``docs/rules/<game>.md`` is the source of truth; after editing it, run
    ``cp docs/rules/*.md bot/engines/data/rules/``."""
    packaged = PACKAGED_RULES / f"{name}.md"
    assert packaged.is_file(), f"bot/engines/data/rules/{name}.md is missing"
    assert packaged.read_bytes() == (RULES / f"{name}.md").read_bytes(), (
        f"bot/engines/data/rules/{name}.md differs from docs/rules/{name}.md: "
        "run `cp docs/rules/*.md bot/engines/data/rules/`"
    )


def test_nothing_else_is_packaged_as_rules() -> None:
    assert sorted(p.stem for p in PACKAGED_RULES.glob("*.md")) == sorted(ENGINES)


def test_the_package_data_includes_the_complete_rules() -> None:
    """pyproject's package data ships ``bot/engines/data/rules/*.md``."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "data/rules/*.md" in config["tool"]["setuptools"]["package-data"]["bot.engines"]


GLOSSARY_WORDS = {
    "mahabharata": ("VP", "Pati", "Raja", "Elephant", "Screen", "Placed nothing"),
    "chaturaji": ("Throne", "Quiet rounds", "Unkindness of ravens", "Re-entry", "Round"),
    "artaban": ("Ply", "Quiet moves", "Home", "Leader", "Tip", "Turn"),
    "kauda_baji": ("Bank", "Tuple", "Safe square", "Markut", "Kill bonus", "Forfeit"),
}
"""Words each board shows that a glossary must explain (Sangram's glossary
is another change's)."""


@pytest.mark.parametrize("name", sorted(GLOSSARY_WORDS))
def test_a_rules_page_ends_with_its_glossary(name: str) -> None:
    """The board's words explained, after the numbered rules (none renumbered)."""
    text = (RULES / f"{name}.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", text, re.MULTILINE)
    assert headings[-1] == "Glossary", headings
    glossary = text.split("\n## Glossary\n", 1)[1]
    assert len(re.findall(r"^- \*\*", glossary, re.MULTILINE)) >= 8
    assert not _HEADING_RULE.search(glossary), "the glossary numbers no rules"
    explained = re.findall(r"\*\*([^*]+)\*\*", glossary)
    for word in GLOSSARY_WORDS[name]:
        assert any(e.lower() == word.lower() for e in explained), f"{word} is not explained"


_HEADING_RULE = re.compile(r"^#{1,6}\s+R(\d+)\b", re.MULTILINE)
_TEST_RULE = re.compile(r"^test_R(\d+)_")


def _rule_numbers(markdown: str) -> set[int]:
    """The rules a page defines: headings such as ``### R9. Forced choice``."""
    return {int(n) for n in _HEADING_RULE.findall(markdown)}


def _cited_rules(test_file: Path) -> dict[int, list[str]]:
    """Rule numbers cited by test names (``test_R7_...``), with the tests."""
    cited: dict[int, list[str]] = {}
    tree = ast.parse(test_file.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            match = _TEST_RULE.match(node.name)
            if match:
                cited.setdefault(int(match.group(1)), []).append(node.name)
    return cited


@engines
def test_every_rule_a_test_cites_exists(name: str) -> None:
    tests = ROOT / "tests" / "engines" / f"test_{name}.py"
    if not tests.is_file():
        pytest.skip(f"{name} has no rules tests")
    page = RULES / f"{name}.md"
    defined = _rule_numbers(page.read_text(encoding="utf-8")) if page.is_file() else set()
    missing = {n: names for n, names in _cited_rules(tests).items() if n not in defined}
    assert not missing, f"docs/rules/{name}.md lacks rules cited by tests: " + "; ".join(
        f"R{n} ({', '.join(sorted(names))})" for n, names in sorted(missing.items())
    )


_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
_CODE = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def _relative_links(markdown: str) -> list[str]:
    """Link targets that name a file in the repository (no scheme, no bare anchor)."""
    prose = _CODE.sub("", _FENCE.sub("", markdown))
    targets = []
    for target in _LINK.findall(prose):
        if target.startswith("#") or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
            continue
        targets.append(target)
    return targets


def _markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


@pytest.mark.parametrize("document", _markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_lead_to_files(document: Path) -> None:
    assert document.is_file(), f"{document.relative_to(ROOT)} is missing"
    broken = []
    for target in _relative_links(document.read_text(encoding="utf-8")):
        path = target.split("#", 1)[0].split("?", 1)[0]
        resolved = (document.parent / path).resolve()
        if not resolved.exists():
            broken.append(target)
        elif ROOT not in resolved.parents and resolved != ROOT:
            broken.append(f"{target} (outside the repository)")
    assert not broken, f"{document.relative_to(ROOT)} has broken links: {', '.join(broken)}"


def test_the_link_finder_sees_links() -> None:
    sample = (
        "See [the design](docs/ARCHITECTURE.md#layout), ![img](a.png), "
        "[web](https://example.com), [here](#goal) and `[code](nowhere.md)`.\n"
        "```\n[fenced](nowhere.md)\n```\n"
    )
    assert _relative_links(sample) == ["docs/ARCHITECTURE.md#layout", "a.png"]


@pytest.mark.parametrize("document", ["README.md", "docs/ARCHITECTURE.md"])
def test_the_design_pages_link_every_games_rules(document: str) -> None:
    """Issue 31: the README's Design section (and the architecture page's
    opening) link every game's rules page, not three of the five."""
    text = (ROOT / document).read_text(encoding="utf-8")
    if document == "README.md":
        text = text.split("\n## Design\n", 1)[1].split("\n## ", 1)[0]
    linked = {Path(link).name for link in _relative_links(text)}
    assert {f"{name}.md" for name in ENGINES} <= linked, sorted(linked)


def test_the_readmes_first_screen_gets_a_moderator_to_a_running_bot() -> None:
    """Issue 31: the Discord application steps started at line 72, after
    developer material.  Now the first screen (the first 70 lines) holds
    the one apt-get line, the application and its token, the invite and
    ``make run``; the internals live in docs/DEVELOPING.md."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first = "\n".join(text.splitlines()[:70])
    for needed in (
        "sudo apt-get install -y",
        "discord.com/developers/applications",
        "DISCORD_TOKEN=",
        "oauth2/authorize?client_id=",
        "make run",
    ):
        assert needed in first, needed
    assert first.index("apt-get install") < first.index("make run")
    installs = [line for line in text.splitlines() if "apt-get install -y" in line]
    assert len(installs) == 1, installs  # one line to install everything
    headings = re.findall(r"^## (.+)$", text, re.M)
    for section in ("Running it as a service", "Upgrading", "What it needs"):
        assert section in headings, headings
    assert headings.index("Running it as a service") < headings.index("Commands")
    # The internals moved out: no strength tables nor search tuning here.
    assert "medium vs easy" not in text and "How the search got there" not in text
    developing = (DOCS / "DEVELOPING.md").read_text(encoding="utf-8")
    assert "medium vs easy" in developing and "How the search got there" in developing


def test_the_service_unit_runs_as_a_user_of_its_own_and_stops_cleanly() -> None:
    """The README's service section installs this unit: it must run as a
    non-root user, stop with SIGTERM (the bot's clean stop) and not restart
    on a setting or database error (exit 2, 3) that needs a person."""
    unit = (DOCS / "deploy" / "chaupal.service").read_text(encoding="utf-8")
    settings = dict(
        line.split("=", 1) for line in unit.splitlines() if "=" in line and not line.startswith("#")
    )
    assert settings["User"] not in {"root", "0"}
    assert settings["KillSignal"] == "SIGTERM"
    assert set(settings["RestartPreventExitStatus"].split()) == {"2", "3"}
    assert settings["ExecStart"].endswith("-m bot")
    assert "docs/deploy/chaupal.service" in (ROOT / "README.md").read_text(encoding="utf-8")
