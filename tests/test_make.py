"""What ``make run`` and ``make test`` install (issue 31, item 1).

The bot needs no PostgreSQL server, and on Debian the ``postgresql`` package
creates a cluster and starts a server on port 5432 unless told not to.  These
tests read the Makefile's dependency graph as make itself walks it (``make -n
-B``: every recipe a target would run, printed, nothing run), and run the
PostgreSQL step's recipe against a fake ``apt-get`` that records what the
machine looked like when the install ran.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")

APT_INSTALL = re.compile(r"apt-get install\b(?P<args>[^;|&}]*)")
PIP_INSTALL = re.compile(r"pip install\b[^;|&}]*?-e '\.\[(?P<extras>[^\]]*)\]'")


def recipes(target: str, *overrides: str) -> str:
    """Every command ``make target`` would run from scratch, as make prints them."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "-B", target, *overrides],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    # A recipe's continued lines are one shell command.
    return done.stdout.replace("\\\n", " ")


def apt_packages(commands: str) -> set[str]:
    return {
        word
        for found in APT_INSTALL.finditer(commands)
        for word in found["args"].split()
        if not word.startswith("-") and not word.startswith(">")
    }


def pip_extras(commands: str) -> set[str]:
    return {
        extra.strip()
        for found in PIP_INSTALL.finditer(commands)
        for extra in found["extras"].split(",")
    }


@pytest.mark.parametrize("target", ["run", "demo", "setup"])
def test_the_bot_path_installs_only_what_the_bot_uses(target: str) -> None:
    commands = recipes(target)
    assert "python -m bot" in commands or target == "setup", commands
    packages = apt_packages(commands)
    assert "fonts-noto-core" in packages, packages  # the reading is not blind
    assert not {p for p in packages if p.startswith("postgresql")}, packages
    assert "createcluster" not in commands and "initdb" not in commands
    # Neither the test tools nor the linters: mypy alone, for mypyc.
    assert pip_extras(commands) == {"compile"}, pip_extras(commands)


@pytest.mark.parametrize("target", ["test", "pytest"])
def test_the_test_path_installs_postgresql_binaries_without_a_cluster(target: str) -> None:
    commands = recipes(target)
    assert "postgresql" in apt_packages(commands), commands
    assert {"test", "dev"} <= pip_extras(commands), pip_extras(commands)
    install = commands.index("--no-install-recommends postgresql")
    before = commands[:install]
    assert "create_main_cluster = false" in before, "no cluster may be created"
    assert "exit 101" in before, "no service may start during the install"


def fake_tools(bin_dir: Path, log: Path, conf_dir: Path, policy_rc: Path) -> None:
    """``id`` says root; ``apt-get`` records, when asked to install, what
    postgresql-common's postinst would read (createcluster.d) and whether
    invoke-rc.d would start anything (policy-rc.d)."""
    bin_dir.mkdir()
    scripts = {
        "id": "#!/bin/sh\necho 0\n",
        "apt-get": f"""#!/bin/sh
echo "apt-get $*" >> {log}
case "$*" in *install*)
    echo "--- createcluster.d" >> {log}
    cat {conf_dir}/*.conf >> {log} 2>/dev/null
    echo "--- policy-rc.d" >> {log}
    cat {policy_rc} >> {log} 2>/dev/null || echo absent >> {log}
esac
""",
    }
    for name, text in scripts.items():
        (bin_dir / name).write_text(text, encoding="utf-8")
        (bin_dir / name).chmod(0o755)


def create_main_cluster(conf_text: str) -> str | None:
    """The value postgresql-common's ``pg_conftool ... show create_main_cluster`` reads."""
    value = None
    for line in conf_text.splitlines():
        found = re.match(r"\s*create_main_cluster\s*=?\s*'?(\w+)'?", line)
        if found:
            value = found[1].lower()
    return value


@pytest.mark.parametrize("own_policy", [False, True], ids=["no-policy-rc", "machine-policy-rc"])
def test_the_postgresql_step_installs_with_no_cluster_and_no_start(
    tmp_path: Path, own_policy: bool
) -> None:
    conf_dir, policy_rc = tmp_path / "createcluster.d", tmp_path / "policy-rc.d"
    log, bin_dir = tmp_path / "apt.log", tmp_path / "bin"
    fake_tools(bin_dir, log, conf_dir, policy_rc)
    if own_policy:
        policy_rc.write_text("#!/bin/sh\n# the machine's own\nexit 101\n", encoding="utf-8")
    recipe = recipes(
        "postgres",
        # As on a machine without PostgreSQL's binaries, writing in tmp_path.
        "POSTGRES_FOUND=false",
        f"NO_CLUSTER_DIR={conf_dir}",
        f"POLICY_RC={policy_rc}",
    )
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        ["sh", "-c", recipe], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    said = log.read_text(encoding="utf-8")
    assert "--no-install-recommends postgresql" in said, (said, done.stderr)
    at_install = said.split("--- createcluster.d\n", 1)[1]
    conf_text, policy_text = at_install.split("--- policy-rc.d\n", 1)
    assert create_main_cluster(conf_text) in ("false", "off"), conf_text
    assert "exit 101" in policy_text, policy_text
    # The refusal to start services lasted only as long as the install; the
    # machine's own stays as it was.  The no-cluster setting stays, so that a
    # later PostgreSQL version brought by an upgrade creates none either.
    assert policy_rc.exists() == own_policy
    if own_policy:
        assert "the machine's own" in policy_rc.read_text(encoding="utf-8")
    assert create_main_cluster("".join(p.read_text() for p in conf_dir.glob("*.conf"))) == "false"
