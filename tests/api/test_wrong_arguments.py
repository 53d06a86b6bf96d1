"""The library's public entry points given arguments of the wrong type: each says so as a
``rules_oracle.Error`` naming the argument (``Malformed`` for an event, ``BadOptions`` for the
rest), never a Python error from deep inside (``AttributeError: 'str' object has no
attribute 'get'``). And every error the library raises on purpose is a ``rules_oracle.Error``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import rules_oracle
from rules_oracle import BadCorpus, BadOptions, Malformed

ROOT = Path(__file__).resolve().parents[2]


def start() -> rules_oracle.Position:
    return rules_oracle.load("pillars").setup(["red", "blue"])


@pytest.mark.parametrize("event", ["a string", None, ["pass_market"], 7])
def test_an_event_that_is_not_a_mapping_is_malformed(event: Any) -> None:
    position = start()
    with pytest.raises(Malformed, match=r"^an event is a mapping .*, not "):
        position.apply(event)
    with pytest.raises(Malformed, match=r"^an event is a mapping"):
        position.is_legal(event)
    with pytest.raises(Malformed, match=r"^values is a mapping of state paths, not "):
        position.with_values(event)


WRONG: dict[str, tuple[Callable[[], object], str]] = {
    "setup a string": (lambda: rules_oracle.load("pillars").setup("redblue"), "players is a list"),
    "setup numbers": (lambda: rules_oracle.load("pillars").setup([1, 2]), "a player name is a"),  # type: ignore[list-item]
    "load options": (lambda: rules_oracle.load("pillars", "x"), "options is a mapping"),  # type: ignore[arg-type]
    "load profile": (lambda: rules_oracle.load("pillars", profile="x"), "profile is a mapping"),  # type: ignore[arg-type]
    "data of a list": (lambda: rules_oracle.load("pillars").data(["x"]), "no data key"),  # type: ignore[arg-type]
    "events None": (
        lambda: rules_oracle.validate_events("pillars", ["red", "blue"], None),  # type: ignore[arg-type]
        "events is a list",
    ),
    "events players": (
        lambda: rules_oracle.validate_events("pillars", "redblue", []),
        "players is a list",
    ),
    "validate_log": (lambda: rules_oracle.validate_log(5), "path is a file path"),  # type: ignore[arg-type]
    "validate_files": (lambda: rules_oracle.validate_files(5), "paths is a list"),  # type: ignore[arg-type]
    "run_scenarios": (lambda: rules_oracle.run_scenarios(5), "paths is a list"),  # type: ignore[arg-type]
    "coverage": (lambda: rules_oracle.coverage([5]), "paths holds file paths"),  # type: ignore[list-item]
    "check_profile": (lambda: rules_oracle.check_profile([1]), "profile is a mapping"),  # type: ignore[arg-type]
    "check_options": (lambda: rules_oracle.check_options("x"), "options is a mapping"),  # type: ignore[arg-type]
    "explain_rule": (lambda: rules_oracle.explain_rule(5), "rule_id is a str"),  # type: ignore[arg-type]
    "explain_name": (lambda: rules_oracle.explain_name(5), "word is a str"),  # type: ignore[arg-type]
    "similar_rule_ids": (lambda: rules_oracle.similar_rule_ids(5), "word is a str"),  # type: ignore[arg-type]
    "read_json": (lambda: rules_oracle.read_json(5), "text is a str"),  # type: ignore[arg-type]
    "load_profile": (lambda: rules_oracle.load_profile(5), "path is a file path"),  # type: ignore[arg-type]
    "describe": (lambda: rules_oracle.describe("x"), "describe takes a Verdict"),  # type: ignore[arg-type]
    "play_log": (lambda: rules_oracle.play_log("pillars", 2, options="x"), "options is a mapping"),  # type: ignore[arg-type]
    "log_page": (lambda: rules_oracle.ReplayPages().log_page(5), "path is a file path"),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("case", sorted(WRONG))
def test_an_argument_of_the_wrong_type_is_named(case: str) -> None:
    call, said = WRONG[case]
    with pytest.raises(BadOptions) as caught:
        call()
    assert caught.value.message.startswith(said), caught.value.message


def test_one_path_alone_is_that_path_not_its_letters() -> None:
    # "scenarios/palmyra" read letter by letter once named the folder "/" among others.
    folder = ROOT / "scenarios" / "palmyra"
    one = rules_oracle.run_scenarios(str(folder))
    assert len(one) == len(list(folder.glob("*.yaml"))) and one
    assert rules_oracle.citing_scenarios(folder) == rules_oracle.citing_scenarios([folder])
    verdicts = rules_oracle.validate_files(str(ROOT / "examples" / "palmyra.jsonl"))
    assert [v.kind for v in verdicts] == ["valid"]


def test_bad_corpus_is_a_rules_oracle_error_and_still_itself(tmp_path: Path) -> None:
    assert issubclass(BadCorpus, rules_oracle.Error)
    with pytest.raises(BadCorpus, match="no such file or folder") as caught:
        rules_oracle.validate_files([tmp_path / "nothing.jsonl"])
    assert caught.value.message == f"no such file or folder: {tmp_path / 'nothing.jsonl'}"
    with pytest.raises(rules_oracle.Error):
        rules_oracle.validate_files([tmp_path])  # no log in it


def test_a_log_header_is_checked_with_the_ready_validator() -> None:
    import jsonschema  # type: ignore[import-untyped]

    check = rules_oracle.validator("log")
    header = {"format": "rules-oracle-log", "version": 1, "game": "pillars", "players": ["a"]}
    check.validate({**header, "options": {"profile": {"setup.start_vp": 3}}})
    # the profile schema, reached by its urn: id, refuses a profile that is not a mapping
    with pytest.raises(jsonschema.ValidationError):
        check.validate({**header, "options": {"profile": ["setup.start_vp"]}})
    assert check.is_valid({"type": "pass_market", "player": "a"})
    registry = rules_oracle.schema_registry()
    for name in rules_oracle.SCHEMAS:
        assert registry.contents(rules_oracle.schema(name)["$id"]) == rules_oracle.schema(name)
    hello = registry.contents("urn:rules-oracle:protocol:v1:hello-request")
    assert hello["title"].startswith("Engine protocol v1")
    with pytest.raises(BadOptions, match="no schema 'nope'"):
        rules_oracle.validator("nope")


def test_the_validator_says_how_to_get_jsonschema(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins
    import sys

    from rules_oracle import _schemas

    real_import = builtins.__import__

    def no_jsonschema(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.split(".")[0] in ("jsonschema", "referencing"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real_import(name, *args, **kwargs)

    for module in [m for m in sys.modules if m.split(".")[0] in ("jsonschema", "referencing")]:
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.setattr(builtins, "__import__", no_jsonschema)
    _schemas.schema_registry.cache_clear()
    try:
        with pytest.raises(ModuleNotFoundError, match=r"pip install 'rules-oracle\[schemas\]'"):
            rules_oracle.validator("log")
    finally:
        _schemas.schema_registry.cache_clear()
