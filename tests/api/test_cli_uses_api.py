"""The command line and the pytest plugin are clients of the public library API: every file
of rules_oracle_cli imports project code from ``rules_oracle`` only, by public names; and
going through the API costs a one-log ``validate`` no import the bare replay does not need
(issue 10's fast start)."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import rules_oracle

ROOT = Path(__file__).resolve().parents[2]
CLI_FILES = tuple(
    str(p.relative_to(ROOT)) for p in sorted((ROOT / "rules_oracle_cli").glob("*.py"))
)
PROJECT = ("oracle", "reference", "rules_oracle", "rules_oracle_cli")
PUBLIC_MODULES = ("rules_oracle", "rules_oracle.conformance")
ALLOWED = {
    ("rules_oracle_cli/cli.py", "rules_oracle_cli.conform"),
    ("rules_oracle_cli/cli.py", "rules_oracle_cli.shared"),
    ("rules_oracle_cli/conform.py", "rules_oracle_cli.shared"),
    ("rules_oracle_cli/pytest_plugin.py", "rules_oracle_cli.shared"),
    ("rules_oracle_cli/__main__.py", "rules_oracle_cli.cli"),
}
"""The exceptions: the CLI's own files, each held to the same rule (rules_oracle_cli/shared.py:
the settings' parsing and checks the command line and the pytest plugin share)."""


def private_imports(source: str, filename: str) -> list[str]:
    """Every import of project code in ``source`` that is not a public ``rules_oracle``
    name, as ``line: module[.name]``; imports inside functions and TYPE_CHECKING count."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Import):
            modules = [(alias.name, "") for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # a relative import is project code by definition
                found.append(f"{node.lineno}: relative import")
                continue
            modules = [(node.module or "", alias.name) for alias in node.names]
        else:
            continue
        for module, name in modules:
            if module.split(".")[0] not in PROJECT or (filename, module) in ALLOWED:
                continue
            public = module in PUBLIC_MODULES and (
                module != "rules_oracle" or name in rules_oracle.__all__
            )
            if not public or (name and name.startswith("_") and name != "__version__"):
                found.append(f"{node.lineno}: {module}" + (f".{name}" if name else ""))
    return found


@pytest.mark.parametrize("filename", CLI_FILES)
def test_the_cli_imports_project_code_only_from_the_public_api(filename: str) -> None:
    source = (ROOT / filename).read_text(encoding="utf-8")
    assert private_imports(source, filename) == []


def test_the_check_sees_a_private_import_anywhere() -> None:
    source = (
        "from rules_oracle import validate_log, _check\n"
        "import reference.registry\n"
        "def f():\n"
        "    from oracle.replay import Verdict\n"
        "    from rules_oracle._tools import serve\n"
        "    from rules_oracle import no_such_name\n"
        "    from . import cli\n"
    )
    assert private_imports(source, "rules_oracle_cli/cli.py") == [
        "1: rules_oracle._check",
        "2: reference.registry",
        "4: oracle.replay.Verdict",
        "5: rules_oracle._tools.serve",
        "6: rules_oracle.no_such_name",
        "7: relative import",
    ]


def test_the_allowance_is_for_cli_py_only() -> None:
    source = "from rules_oracle_cli.conform import run_conform\n"
    assert private_imports(source, "rules_oracle_cli/cli.py") == []
    found = private_imports(source, "rules_oracle_cli/pytest_plugin.py")
    assert found == ["1: rules_oracle_cli.conform.run_conform"]
    # the plugin shares the settings' checks, and only them
    shared = "from rules_oracle_cli.shared import conform_settings\n"
    assert private_imports(shared, "rules_oracle_cli/pytest_plugin.py") == []
    assert private_imports(shared, "rules_oracle_cli/__main__.py") == [
        "1: rules_oracle_cli.shared.conform_settings"
    ]


def test_every_public_name_is_in_the_reference() -> None:
    documented = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    missing = [n for n in rules_oracle.__all__ if not re.search(rf"\b{n}\b", documented)]
    assert missing == []


PROBE = """
import json, runpy, sys
sys.argv = sys.argv[1:]
try:
    runpy.run_module(sys.argv[0], run_name="__main__") if sys.argv[0] == "rules_oracle_cli" else (
        runpy.run_path(sys.argv[0], run_name="__main__"))
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def imported(*argv: str) -> set[str]:
    """The modules a process running ``argv`` (a script, or ``rules_oracle_cli``) had
    imported."""
    run = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, check=False
    )
    modules: set[str] = set(json.loads(run.stderr.strip().splitlines()[-1]))
    return modules


def test_a_one_log_validate_imports_little_beyond_the_bare_replay(tmp_path: Path) -> None:
    bare = tmp_path / "bare.py"
    bare.write_text(
        "import sys\nfrom pathlib import Path\nfrom oracle.games import GameCache\n"
        "from oracle.replay import validate_log\n"
        "print(validate_log(Path(sys.argv[1]), GameCache()).kind)\n"
    )
    log = str(ROOT / "examples" / "palmyra.jsonl")
    extra = imported("rules_oracle_cli", "validate", log) - imported(str(bare), log)
    ours = {m for m in extra if m.split(".")[0] in PROJECT}
    # the CLI, the corpus reader, the text report, the progress bar (rich only when shown),
    # the public errors and the check of the arguments' types, the options' parsing (shared
    # with the pytest plugin: it imports nothing at its top)
    assert ours <= {
        "rules_oracle_cli",
        "rules_oracle_cli.__main__",
        "rules_oracle_cli.cli",
        "rules_oracle_cli.shared",
        "oracle.corpus",
        "oracle.errors",
        "oracle.progress",
        "oracle.report_text",
        "rules_oracle",
        "rules_oracle._args",
        "rules_oracle._corpus",
        "rules_oracle._errors",
        "rules_oracle._reports",
    }, sorted(ours)
    # the JSON/JUnit/scenario reports (oracle.report) and what JUnit needs load only for them
    heavy = {"rich", "jsonschema", "oracle.scenarios", "oracle.html", "concurrent.futures"}
    heavy |= {"oracle.report", "xml", "socket", "tempfile"}
    assert not {m.split(".")[0] for m in extra} & heavy
    assert not extra & heavy


def test_importing_the_api_imports_nothing_until_a_name_is_used(tmp_path: Path) -> None:
    script = tmp_path / "user.py"
    script.write_text("import rules_oracle\n")
    loaded = imported(str(script))
    assert "rules_oracle" in loaded
    assert not {"oracle.replay", "reference.registry", "yaml", "importlib.metadata"} & loaded


@pytest.mark.parametrize("fmt", ["json", "junit"])
def test_a_json_or_junit_validate_loads_the_full_report(fmt: str) -> None:
    # the other side of the fast start: the formats that need oracle.report do load it
    log = str(ROOT / "examples" / "palmyra.jsonl")
    loaded = imported("rules_oracle_cli", "validate", "--format", fmt, log)
    assert "oracle.report" in loaded
    assert ("xml.etree.ElementTree" in loaded) == (fmt == "junit")


def test_the_report_still_offers_the_text_lines() -> None:
    # oracle.report re-exports the text renderings (the HTML page, conform and tests use them)
    from oracle import report, report_text

    for name in ("verdict_text", "scenario_text", "totals_text", "text_safe", "json_safe"):
        assert getattr(report, name) is getattr(report_text, name)
