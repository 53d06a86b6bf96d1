"""The CLI as the tests call it in-process: ``invoke(*args)`` gives the exit code, standard
output and standard error; an exception other than the command's own exit fails the test
(under typer's CliRunner a crash prints no traceback)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from rules_oracle_cli.cli import app

ROOT = Path(__file__).resolve().parents[1]
"""The repository's root folder."""

_RUNNER = CliRunner()


def invoke(*args: str) -> tuple[int, str, str]:
    """Run ``rules-oracle *args``; its exit code, standard output and standard error."""
    result = _RUNNER.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr
