"""A corpus: the same report whichever way the work is spread (one process, --jobs 2, Dask),
totals, --quiet, gzip, --from-list and standard input, streamed JSON and JUnit."""

from __future__ import annotations

import gc
import gzip
import importlib.util
import json
import os
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oracle import corpus as pipeline
from oracle.games import GameCache
from oracle.play import PLAYER_NAMES, play_lines
from oracle.report import JUNIT_SPOOL_BYTES, json_report_chunks, junit_chunks
from rules_oracle_cli.cli import app

runner = CliRunner()
GAMES = ("milestones", "municipium", "palmyra", "pillars")
PER_GAME = 10


def played(game: str, seed: int) -> list[str]:
    rules = GameCache().get(game, {})
    players = 2 + seed % (rules.max_players - 1)
    return list(play_lines(rules, PLAYER_NAMES[:players], seed, {}))


def wrong_player(lines: list[str]) -> tuple[list[str], int]:
    """The first event a player makes, given to the next player in the header: out of turn."""
    names = json.loads(lines[0])["players"]
    for i, line in enumerate(lines[1:], 1):
        record = json.loads(line)
        if record.get("player") in names:
            record["player"] = names[(names.index(record["player"]) + 1) % len(names)]
            return [*lines[:i], json.dumps(record), *lines[i + 1 :]], i + 1
    raise AssertionError("no player event")


def tampered_claim(lines: list[str]) -> tuple[list[str], int]:
    """The first whole-number claim, one more than it was: the reference disagrees."""
    for i, line in enumerate(lines[1:], 1):
        record = json.loads(line)
        for path, value in record.get("state", {}).items():
            if isinstance(value, int) and not isinstance(value, bool):
                record["state"][path] = value + 1
                return [*lines[:i], json.dumps(record), *lines[i + 1 :]], i + 1
    raise AssertionError("no whole-number claim")


def broken_json(lines: list[str]) -> tuple[list[str], int]:
    """The fifth line cut in half: not JSON."""
    return [*lines[:4], lines[4][: len(lines[4]) // 2], *lines[5:]], 5


def write_corpus(root: Path, per_game: int) -> dict[str, tuple[str, int]]:
    """``per_game`` logs of each of the four games in nested folders under ``root``, some
    gzipped; one wrong player (illegal), one tampered claim (divergent), one broken line
    (malformed) among the first three games' first three logs, and one truncated log
    (incomplete). Returns the expected kind and line of each bad log."""
    expected: dict[str, tuple[str, int]] = {}
    for g, game in enumerate(GAMES):
        for seed in range(per_game):
            lines = played(game, seed)
            name = f"{game}/{seed // 5}/{game}-{seed}.jsonl"
            if g < 3 and seed < 3:
                kind, edit = [
                    ("illegal", wrong_player),
                    ("divergent", tampered_claim),
                    ("malformed", broken_json),
                ][(seed + g) % 3]
                lines, line = edit(lines)
                expected[str(root / name)] = (kind, line)
            elif game == "pillars" and seed == 0:
                lines = lines[: len(lines) // 2]
                expected[str(root / name)] = ("incomplete", 0)
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            text = "\n".join(lines) + "\n"
            if seed % 4 == 3:
                with gzip.open(path.with_name(path.name + ".gz"), "wt", encoding="utf-8") as out:
                    out.write(text)
            else:
                path.write_text(text, encoding="utf-8")
    return expected


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, tuple[str, int]]]:
    """40 logs (``write_corpus``): the folder and the expected kind and line of each bad log."""
    root = tmp_path_factory.mktemp("corpus")
    return root, write_corpus(root, PER_GAME)


def report(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["validate", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.stderr == ""
    return result.exit_code, result.stdout


def timeless(report_text: str) -> str:
    """A report without what differs from run to run: JUnit's time and timestamp."""
    return re.sub(r' (time|timestamp)="[^"]*"', "", report_text)


def test_the_corpus_is_mixed_and_totals_add_up(
    corpus: tuple[Path, dict[str, tuple[str, int]]],
) -> None:
    root, expected = corpus
    code, out = report("--format", "json", str(root))
    data = json.loads(out)
    assert code == 1
    found = {v["file"]: (v["status"], v.get("line") or 0) for v in data["results"]}
    assert len(found) == len(GAMES) * PER_GAME
    for log, (kind, line) in expected.items():
        log = log if log in found else log + ".gz"
        assert found[log] == (kind, line), log
    assert all(kind == "valid" for log, (kind, _) in found.items() if log not in expected)
    assert data["summary"] == {
        "total": 40,
        "passed": 31,  # an incomplete log passes unless --strict
        "failed": 9,
        "by_status": {
            "valid": 30,
            "incomplete": 1,
            "malformed": 3,
            "illegal": 3,
            "divergent": 3,
            "internal_error": 0,
        },
    }
    _, text = report(str(root))
    assert text.splitlines()[-1] == (
        "40 logs: 30 valid, 1 incomplete, 3 malformed, 3 illegal, 3 divergent, 0 internal errors"
    )


@pytest.mark.parametrize("fmt", ["text", "json", "junit"])
def test_jobs_2_report_is_byte_identical(
    corpus: tuple[Path, dict[str, tuple[str, int]]], fmt: str
) -> None:
    root, _ = corpus
    one = report("--format", fmt, "--at", "7", str(root))
    two = report("--format", fmt, "--at", "7", "--jobs", "2", str(root))
    assert one[0] == 1
    assert (two[0], timeless(two[1])) == (one[0], timeless(one[1]))


def test_dask_local_cluster_report_is_byte_identical(
    corpus: tuple[Path, dict[str, tuple[str, int]]],
) -> None:
    pytest.importorskip("distributed", reason="Dask is an optional extra: rules-oracle[dask]")
    root, _ = corpus
    one = report("--format", "json", str(root))
    result = runner.invoke(app, ["validate", "--format", "json", "--dask", "local", str(root)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert (result.exit_code, result.stdout) == one


@pytest.mark.slow
def test_200_logs_give_one_report_on_one_core_two_workers_and_dask(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # Issue 10's measure: a mixed corpus of 200 logs of all four games, 9 of them broken
    # (3 illegal, 3 divergent, 3 malformed) and one incomplete; the same bytes every way.
    root = tmp_path_factory.mktemp("corpus200")
    expected = write_corpus(root, 50)
    one = report("--format", "json", str(root))
    summary = json.loads(one[1])["summary"]
    assert (one[0], summary["total"], summary["by_status"]) == (
        1,
        200,
        {
            "valid": 190,
            "incomplete": 1,
            "malformed": 3,
            "illegal": 3,
            "divergent": 3,
            "internal_error": 0,
        },
    )
    assert len(expected) == 10
    assert report("--format", "json", "--jobs", "2", str(root)) == one
    text = report(str(root))
    assert report("--jobs", "2", str(root)) == text
    if importlib.util.find_spec("distributed") is not None:  # the dask extra
        result = runner.invoke(app, ["validate", "--format", "json", "--dask", "local", str(root)])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.output
        assert (result.exit_code, result.stdout) == one


def test_quiet_prints_failures_and_totals(
    corpus: tuple[Path, dict[str, tuple[str, int]]],
) -> None:
    root, expected = corpus
    code, out = report("--quiet", "--jobs", "2", str(root))
    heads = [line for line in out.splitlines() if not line.startswith("  ")]
    failing = {log for log, (kind, _) in expected.items() if kind != "incomplete"}
    assert code == 1
    assert {h.split(": ")[0].removesuffix(".gz") for h in heads[:-1]} == failing
    assert heads[-1].startswith("40 logs: 30 valid")


def test_from_list_and_standard_input(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    log.write_text("\n".join(played("palmyra", 1)) + "\n", encoding="utf-8")
    listing = tmp_path / "list.txt"
    listing.write_text(f"{log}\n\n{tmp_path / 'gone.jsonl'}\n", encoding="utf-8")
    code, out = report("--from-list", str(listing))
    assert code == 1
    assert out.splitlines()[0].startswith(f"{log}: valid (palmyra")
    assert f"{tmp_path / 'gone.jsonl'}: malformed: cannot open: No such file" in out
    result = runner.invoke(app, ["validate", "-"], input=log.read_text(encoding="utf-8"))
    assert result.exit_code == 0
    assert result.stdout.startswith("-: valid (palmyra")
    result = runner.invoke(app, ["validate", "--from-list", "-"], input=f"{log}\n")
    assert result.exit_code == 0
    assert result.stdout.startswith(f"{log}: valid (palmyra")


def test_corrupt_gzip_is_malformed_naming_the_file(tmp_path: Path) -> None:
    text = "\n".join(played("milestones", 2)) + "\n"
    whole = gzip.compress(text.encode())
    (tmp_path / "cut.jsonl.gz").write_bytes(whole[: len(whole) // 2])
    (tmp_path / "plain.jsonl.gz").write_bytes(text.encode())
    code, out = report(str(tmp_path))
    lines = out.splitlines()
    assert code == 1
    assert lines[0].startswith(f"{tmp_path / 'cut.jsonl.gz'}: malformed: corrupt gzip data")
    assert lines[1].startswith(f"{tmp_path / 'plain.jsonl.gz'}: malformed: corrupt gzip data")


def test_usage_errors(tmp_path: Path) -> None:
    for args in (
        [],
        ["--jobs", "-1", str(tmp_path)],
        ["--jobs", "2", "--dask", "local", str(tmp_path)],
        ["--from-list", str(tmp_path / "missing.txt")],
        [str(tmp_path)],  # an empty folder
    ):
        result = runner.invoke(app, ["validate", *args])
        assert result.exit_code == 2, args
        assert isinstance(result.exception, SystemExit)


def test_scenarios_jobs_2_is_identical() -> None:
    folder = str(Path(__file__).parent / "toy_scenarios")
    for fmt in ("text", "json", "junit"):
        one = runner.invoke(app, ["scenarios", "--format", fmt, folder])
        two = runner.invoke(app, ["scenarios", "--format", fmt, "--jobs", "2", folder])
        assert one.exit_code in (0, 1)
        assert (two.exit_code, timeless(two.stdout)) == (one.exit_code, timeless(one.stdout))


def chunks_of(items: list[dict[str, object]], head: dict[str, object]) -> Iterator[str]:
    return json_report_chunks("verdicts", items, lambda: {"summary": {"logs": len(items)}}, head)


@pytest.mark.parametrize("count", [0, 1, 3])
@pytest.mark.parametrize("head", [{}, {"format": "r", "version": 1}])
def test_streamed_json_is_the_whole_dump(count: int, head: dict[str, object]) -> None:
    items: list[dict[str, object]] = [
        {"log": f"g{i}.jsonl", "state_at": {"a": [1, {"b": "x\ny"}]}, "n": i} for i in range(count)
    ]
    whole = {**head, "verdicts": items, "summary": {"logs": count}}
    assert "".join(chunks_of(items, head)) == json.dumps(whole, indent=1)
    no_tail = json_report_chunks("v", items[:1], dict)
    assert "".join(no_tail) == json.dumps({"v": items[:1]}, indent=1)


@pytest.mark.parametrize("count", [0, 2, 1000])
def test_streamed_junit_is_the_whole_tree(count: int) -> None:
    """Also past JUNIT_SPOOL_BYTES of cases (1,000 here), where they wait on disk."""
    cases = [
        (f"g{i}.jsonl", "toy", "failure" if i else None, "illegal", "bad <&> move")
        for i in range(count)
    ]
    root = ET.Element(
        "testsuite",
        name="s",
        tests=str(count),
        failures=str(count - 1 if count else 0),
        errors="0",
        skipped="0",
        time="1.500",
        timestamp="T",
        hostname="H",
    )
    for name, classname, kind, failure_type, message in cases:
        case = ET.SubElement(root, "testcase", name=name, classname=classname)
        if kind:
            ET.SubElement(case, kind, message=message, type=failure_type).text = message
    streamed = "".join(junit_chunks("s", cases, lambda: 1.5))
    if count == 1000:  # the cases did go past the spool's memory
        assert len(streamed.encode()) > JUNIT_SPOOL_BYTES
    streamed = re.sub(r'timestamp="[^"]*"', 'timestamp="T"', streamed)
    streamed = re.sub(r'hostname="[^"]*"', 'hostname="H"', streamed)
    assert streamed == ET.tostring(root, encoding="unicode")


def _free_tuples(capfd: pytest.CaptureFixture[str], size: int) -> int | None:
    """How many tuples of ``size`` CPython's free list holds (None: not reported here)."""
    capfd.readouterr()
    sys._debugmallocstats()
    found = re.search(rf"(\d+) free {size}-sized PyTupleObjects", capfd.readouterr().err)
    return int(found.group(1)) if found else None


def test_tidy_empties_the_free_lists_every_n_files(capfd: pytest.CaptureFixture[str]) -> None:
    """The memory fix rests on this: a full collection empties the tuple free lists, which
    the many tuples a replay frees fill up (and which nothing else empties)."""
    tidy = pipeline.Tidy(every=3)
    made = [tuple(range(n, n + 3)) for n in range(3000)]
    del made
    before = _free_tuples(capfd, 3)
    if before is None:
        pytest.skip("this Python does not report its free lists")
    assert before > 1000
    tidy.checked(2)
    assert (_free_tuples(capfd, 3) or 0) > 1000  # not yet: 2 files of 3
    tidy.checked(1)
    assert (_free_tuples(capfd, 3) or 0) < 50  # a few taken and given back since


def test_one_job_collects_every_collect_every_files(monkeypatch: pytest.MonkeyPatch) -> None:
    full: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == 2:
            full.append(1)

    def work(names: list[str], settings: pipeline.Settings, games: GameCache) -> list[str]:
        return names

    monkeypatch.setattr(pipeline, "COLLECT_EVERY", 8)
    gc.callbacks.append(seen)
    try:
        done = list(pipeline.run_local(work, (str(n) for n in range(25)), pipeline.Settings(), 1))
    finally:
        gc.callbacks.remove(seen)
    assert done == [str(n) for n in range(25)]
    assert len(full) >= 3  # after 8, 16 and 24 files (the interpreter may add its own)


def test_a_worker_collects_every_collect_every_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """--jobs N and Dask workers check their files through ``in_worker``: the same tidying."""
    full: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == 2:
            full.append(1)

    def work(names: list[str], settings: pipeline.Settings, games: GameCache) -> list[str]:
        return names

    monkeypatch.setattr(pipeline, "_WORKER_TIDY", pipeline.Tidy(every=8))
    gc.callbacks.append(seen)
    try:
        for start in range(0, 24, 4):
            names = [str(n) for n in range(start, start + 4)]
            assert pipeline.in_worker(work, names, pipeline.Settings()) == names
    finally:
        gc.callbacks.remove(seen)
    assert len(full) >= 3  # after 8, 16 and 24 files (the interpreter may add its own)


def test_jobs_never_start_more_workers_than_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    # A fork pool starts all its workers at once: --jobs 100000 forked that many.
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    assert [pipeline.every_core(j) for j in (0, 1, 2, 3, 4, 100_000)] == [3, 1, 2, 3, 3, 3]
