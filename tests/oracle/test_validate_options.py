"""validate --options plays the other reading of a rule: a log valid under it only."""

from __future__ import annotations

from cli_invoke import ROOT, invoke

MARKET = ROOT / "scenarios" / "pillars" / "PIL-MARKET-04-metal-is-never-bought.yaml"


def test_validate_options_plays_the_other_reading() -> None:
    # a value the game refuses is the user's option at fault, not the log (issue 28 item 10)
    code, out, err = invoke(
        "validate", str(ROOT / "examples/municipium.jsonl"), "--options", '{"end_mode": "x"}'
    )
    assert code == 2 and out == "" and "end_mode" in err and "finish_round" in err
    code, _, err = invoke("validate", str(ROOT / "examples"), "--options", "[1]")
    assert code == 2 and "--options must be a JSON object" in err
