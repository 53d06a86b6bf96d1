"""An engine for ``conform --part chance`` tests: our rules through the public API behind the
engine protocol (hello, new_game, apply, to_act, result, next, bye), whose ``next`` draws
chance outcomes with one value favoured: ``--favour FIELD=VALUE --weight W`` multiplies the
probability of outcomes whose FIELD is VALUE by W (W = 1: a fair engine); ``--reseed`` seeds
the generator afresh with ``--seed`` at every new game (each game then draws as the last
did). Players' events from ``next`` are chosen uniformly.

Run: ``python biased_engine.py --favour tile=L:D --weight 3``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

import rules_oracle
from rules_oracle import CHANCE


class Engine:
    def __init__(
        self,
        field: str,
        value: str,
        weight: float,
        seed: int,
        capabilities: list[str],
        reseed: bool = False,
    ) -> None:
        self.field, self.value, self.weight = field, value, weight
        self.capabilities = capabilities
        self.seed, self.reseed = seed, reseed
        self.rng = random.Random(seed)
        self.position: rules_oracle.Position | None = None

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        if op == "hello":
            games = list(rules_oracle.GAMES)
            caps = self.capabilities
            return {"ok": True, "name": "biased", "games": games, "capabilities": caps}
        if op == "new_game":
            rules = rules_oracle.load(request["game"], request.get("options") or {})
            self.position = rules.setup(request["players"])
            if self.reseed:
                self.rng = random.Random(self.seed)
            return {"ok": True}
        if op == "bye":
            return {"ok": True}
        position = self.position
        if position is None:
            return {"ok": False, "error": "no game"}
        if op == "apply":
            try:
                self.position = position.apply(request["event"])
            except rules_oracle.Illegal as exc:
                return {"ok": False, "illegal": True, "rule": exc.rule_id, "message": str(exc)}
            return {"ok": True}
        if op == "to_act":
            over = position.is_over
            return {"ok": True, "to_act": "" if over else position.to_act, "over": over}
        if op == "result":
            result = position.result()
            return {"ok": True, "scores": result.scores, "winners": list(result.winners)}
        if op == "next":
            event = self.draw(position)
            self.position = position.apply(event)
            return {"ok": True, "event": event}
        return {"ok": False, "error": f"unknown op {op!r}"}

    def draw(self, position: rules_oracle.Position) -> dict[str, Any]:
        if position.to_act != CHANCE:
            legal = position.legal()
            return legal[self.rng.randrange(len(legal))]
        outcomes = position.chance_outcomes()
        weights = [
            p * (self.weight if str(e.get(self.field)) == self.value else 1.0) for e, p in outcomes
        ]
        return self.rng.choices([e for e, _ in outcomes], weights=weights)[0]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--favour", default="=", help="FIELD=VALUE")
    parser.add_argument("--weight", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reseed", action="store_true", help="the same seed every game")
    parser.add_argument("--no-next", action="store_true", help="announce no capability")
    args = parser.parse_args()
    field, _, value = args.favour.partition("=")
    capabilities = [] if args.no_next else ["next"]
    engine = Engine(field, value, args.weight, args.seed, capabilities, args.reseed)
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.write(json.dumps(engine.answer(request)) + "\n")
        sys.stdout.flush()
        if request.get("op") == "bye":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
