"""rules-oracle installed from its package (not a clone, not editable), run from an empty
folder: conform and the pytest plugin run the bundled scenarios, and a scenario folder that
does not exist is a usage error.

The package is built from a copy of this source tree and installed without its dependencies
into a fresh virtual environment; the dependencies (attrs, typer, pytest, ...) are the ones
this test run has, reached through a path file, so nothing but the build backend is fetched.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

from oracle.formats.scenario import BUNDLED_SCENARIOS
from tests.conform.conftest import ROOT

GAMES = ("pillars", "milestones", "palmyra", "municipium")
NOT_SHIPPED = shutil.ignore_patterns(
    ".git", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis", ".venv*"
)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with rules-oracle installed from a copy of the tree."""
    root = tmp_path_factory.mktemp("installed")
    source = root / "source"
    shutil.copytree(ROOT, source, symlinks=True, ignore=NOT_SHIPPED)
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    pip = [str(python), "-m", "pip", "install", "--quiet", "--no-deps", str(source)]
    subprocess.run(pip, check=True, env=_clean_env())
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    ours = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (Path(purelib) / "test-run-dependencies.pth").write_text("\n".join(ours) + "\n")
    return venv


def _clean_env() -> dict[str, str]:
    """The environment without anything pointing at this source tree."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env.pop("VIRTUAL_ENV", None)
    return env


def run(venv: Path, folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(venv / "bin" / args[0]), *args[1:]],
        cwd=folder,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.slow
def test_the_installed_package_is_not_this_source_tree(installed: Path, tmp_path: Path) -> None:
    where = "import rules_oracle; print(rules_oracle.__file__)"
    found = run(installed, tmp_path, "python", "-c", where)
    assert found.returncode == 0, found.stderr
    assert Path(found.stdout.strip()).is_relative_to(installed), found.stdout


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_conform_runs_the_bundled_scenarios_from_an_empty_folder(
    installed: Path, tmp_path: Path, game: str
) -> None:
    serve = f"{installed / 'bin' / 'rules-oracle'} serve --game {game}"
    result = run(
        installed, tmp_path, "rules-oracle", "conform", "--engine", serve, "--game", game,
        "--games", "1", "--players", "2", "--format", "json",
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    counts = json.loads(result.stdout)["counts"]
    bundled = len(list((BUNDLED_SCENARIOS / game).glob("*.yaml")))
    assert counts["scenarios_passed"] == bundled > 0
    assert counts["events"] > 0 and counts["engine_events"] > 0
    missing = run(
        installed, tmp_path, "rules-oracle", "conform", "--engine", serve, "--game", game,
        "--scenarios-dir", str(tmp_path / "nowhere"),
    )  # fmt: skip
    assert missing.returncode == 2
    assert "no such folder" in missing.stderr


@pytest.mark.slow
def test_the_pytest_plugin_runs_the_bundled_scenarios_in_a_project_elsewhere(
    installed: Path, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "test_mine.py").write_text("def test_mine():\n    pass\n")
    serve = f"{installed / 'bin' / 'rules-oracle'} serve --game palmyra"
    result = run(
        installed, project, "python", "-m", "pytest", "-p", "no:cacheprovider", "-q",
        "--rules-oracle-engine", serve, "--rules-oracle-game", "palmyra",
        "--rules-oracle-games", "0",
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    bundled = len(list((BUNDLED_SCENARIOS / "palmyra").glob("*.yaml")))
    assert f"{bundled + 1} passed" in result.stdout.splitlines()[-1]
