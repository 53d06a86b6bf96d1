"""`rules-oracle conform` catches each fault the Node relay plants in front of `serve`.

One short play-out of Pillars for 2 players (seed 0) per fault; the relay plants the fault
after a few events, and the JSON report must name it: its kind, where it showed, and (for a
state lie) the path and both values. The faithful relay must pass. What each fault must be
reported as comes from docs/protocol.md and the relay's README, not from a run.

``conform`` arrives with the conformance kit (another branch): until then these tests are
skipped. ``RULES_ORACLE`` may name another checkout's rules-oracle command.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from protocol_client import rules_oracle, serve_command

RELAY = Path(__file__).resolve().parents[2] / "examples" / "adapters" / "node" / "relay.mjs"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def conform(
    *relay_flags: str,
    parts: tuple[str, ...] = ("playout",),
    timeout: float = 10.0,
    extra: tuple[str, ...] = (),
) -> tuple[int, Any]:
    """Exit code and JSON report of one conform run against serve behind the relay."""
    relay = ["node", str(RELAY), *relay_flags, "--", *serve_command("pillars")]
    argv = rules_oracle(
        "conform",
        "--engine",
        shlex.join(relay),
        "--game",
        "pillars",
        "--players",
        "2",
        "--games",
        "1",
        "--seed",
        "0",
        *[arg for part in parts for arg in ("--part", part)],
        "--timeout",
        str(timeout),
        "--no-reach",  # the one play-out: none from rare ends or scenario positions
        "--format",
        "json",
        *extra,
    )
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    return done.returncode, json.loads(done.stdout)


def only_finding(report: Any) -> dict[str, Any]:
    assert report["passed"] is False
    hard = [f for f in report["findings"] if not f["soft"]]
    assert len(hard) == 1, hard
    finding: dict[str, Any] = hard[0]
    return finding


def test_the_faithful_relay_passes() -> None:
    code, report = conform()
    assert code == 0 and report["passed"] is True and report["findings"] == []


def test_a_state_lie_is_found_at_its_path_after_its_event() -> None:
    code, report = conform("--fault", "lie-state", "--after", "3", "--path", "players.red.gold")
    finding = only_finding(report)
    assert code == 1
    assert (finding["kind"], finding["path"], finding["event_index"]) == (
        "state",
        "players.red.gold",
        3,
    )
    assert finding["theirs"] == finding["ours"] + 1
    assert finding["events"] == 3  # the lie needs 3 events: no shorter prefix shows it


@pytest.mark.parametrize(
    ("fault", "kind"),
    [
        ("refuse-legal", "refused_legal"),
        ("drop-legal", "legal"),
        ("garbage", "garbage"),
        ("wrong-shape", "shape"),
        ("hang", "hang"),
        ("crash", "crash"),
    ],
)
def test_each_planted_fault_is_reported_as_its_kind(fault: str, kind: str) -> None:
    # The hang is found within the per-request timeout (5 s leaves the engine time to start).
    code, report = conform("--fault", fault, "--after", "4", timeout=5.0)
    finding = only_finding(report)
    assert code == 1
    assert finding["kind"] == kind
    assert finding["events"] == 4  # the fault acts after 4 events: no shorter prefix shows it


def test_an_accepted_illegal_event_is_found_by_the_probes() -> None:
    code, report = conform("--fault", "accept-illegal", parts=("playout", "probes"))
    finding = only_finding(report)
    assert code == 1
    assert finding["kind"] == "accepted_illegal"
    assert finding["probe"] is not None


def test_another_rule_id_is_a_soft_finding_unless_strict() -> None:
    code, report = conform("--fault", "other-rule", parts=("playout", "probes"))
    assert code == 0 and report["passed"] is True
    soft = report["findings"]
    assert soft and all(f["soft"] and f["their_rule"] == "OTHER-RULE-01" for f in soft)
    code, report = conform(
        "--fault", "other-rule", parts=("playout", "probes"), extra=("--strict-rules",)
    )
    assert code == 1 and report["passed"] is False
