"""Influence, the decurion exchange and the chained events: prefect, citizen, temple order.

These run inside other rules (a card, a power, a draw) and never fail on their own: each
is the rulebook's consequence of a legal event, applied at once.
"""

from __future__ import annotations

from typing import Any

from reference.core.state import with_player as with_player
from reference.core.stock import Stock, holds, put_back, take
from reference.municipium.state import Institution, PlayerState, State, evolve
from reference.municipium.tables import KINDS, Tables

# --- trace points ---------------------------------------------------------------------------


def noted(
    t: Tables, rule_id: str, state: State, decided: tuple[str, ...] = (), why: str = ""
) -> State:
    """Trace point: ``state`` is the state once rule ``rule_id`` has done its work, which
    decided the paths ``decided`` (changed or not; ``why``: what it gave, in words); noted
    only while a value is being explained (reference/core/trace.py); returns ``state``."""
    if t.recorder is not None:
        t.recorder.note(rule_id, state, decided, why)
    return state


def note_decurions(t: Tables, state: State, before: dict[str, PlayerState]) -> None:
    """Trace point: the families of ``state`` that now hold more decurions than in
    ``before`` made them by exchanging complete sets (MUN-DECURION-01)."""
    if t.recorder is None:
        return
    for name, p in state.players.items():
        made = p.decurions - before[name].decurions
        if made > 0:
            why = f"{made} complete set(s) exchanged"
            t.recorder.note("MUN-DECURION-01", state, (f"players.{name}.decurions",), why)


# --- small state edits --------------------------------------------------------------------


def add(counts: dict[str, int], key: str, amount: int) -> dict[str, int]:
    """A copy of ``counts`` with ``amount`` added at ``key``."""
    new = dict(counts)
    new[key] = new[key] + amount
    return new


def moved_one(counts: dict[str, int], origin: str, destination: str) -> dict[str, int]:
    """A copy of ``counts`` (members by institution) with one moved from ``origin`` to
    ``destination``."""
    new = dict(counts)
    new[origin] -= 1
    new[destination] += 1
    return new


def bag_size(state: State) -> int:
    """Citizens left in the bag."""
    return sum(state.bag.values())


def member_tag(institution: str, wreathed: bool) -> str:
    """How a moved member is remembered for the rest of the turn."""
    return institution + "+wreath" if wreathed else institution


# --- influence ----------------------------------------------------------------------------


def influence(player: PlayerState, institution: str) -> int:
    """MUN-INFLUENCE-01: one per member there, two for a member wearing a wreath."""
    return player.members[institution] + 2 * player.wreathed[institution]


def ranking(state: State, institution: str) -> list[str]:
    """Families present in ``institution``, most influence first.

    MUN-INFLUENCE-02: a tie goes to the family higher in the temple order; a family with
    no influence there is not present and is never first or second.
    """
    players = state.players
    present = []
    for seat, name in enumerate(state.temple_order):
        family = players[name]
        weight = family.members[institution] + 2 * family.wreathed[institution]  # influence
        if weight > 0:
            present.append((-weight, seat, name))
    present.sort()
    return [name for _, _, name in present]


# --- decurions ----------------------------------------------------------------------------


def settle(
    state: State, name: str, player: PlayerState, t: Tables | None = None, **changes: Any
) -> State:
    """The state with ``player`` as the family ``name``, once it has exchanged the complete
    sets it now holds (one copy of the state; see ``exchanged``; ``changes``: the caller's
    other edits, in the same copy, a ``bag`` among them the bag spent citizens go back to).
    With ``t``, a trace point notes the decurions made."""
    bag = changes.pop("bag", state.bag)
    settled, new_bag, supply = exchanged(player, bag, state.favour_supply)
    if new_bag is not state.bag:
        changes["bag"] = new_bag
    if supply != state.favour_supply:
        changes["favour_supply"] = supply
    after = with_player(state, name, settled, **changes)
    if t is not None and t.recorder is not None and settled is not player:
        note_decurions(t, after, {**state.players, name: player})
    return after


def exchanged(
    player: PlayerState, bag: dict[str, int], supply: Stock
) -> tuple[PlayerState, dict[str, int], Stock]:
    """``player`` once it has exchanged the complete sets it holds, with the ``bag`` and the
    favour ``supply`` that take back what it spent (the very same when it holds no set).

    MUN-DECURION-01, MUN-DECURION-02: trade every complete set for a decurion at once.
    A set is one citizen of each kind; favours stand in for missing kinds. Real citizens
    are spent first and favours only for the kinds missing (our ruling); spent citizens go
    back to the bag and spent favours to the favour supply (our ruling; an unlimited
    supply stays unlimited).
    """
    favours = player.favours
    missing = [k for k in KINDS if player.citizens[k] == 0]
    if len(missing) > favours:
        return player, bag, supply  # no complete set: nothing is copied
    citizens = dict(player.citizens)
    bag = dict(bag)
    decurions = player.decurions
    while len(missing) <= favours:
        for kind in KINDS:
            if citizens[kind] > 0:
                citizens[kind] -= 1
                bag[kind] += 1
        favours -= len(missing)
        supply = put_back(supply, len(missing))
        decurions += 1
        missing = [k for k in KINDS if citizens[k] == 0]
    player = evolve(player, citizens=citizens, favours=favours, decurions=decurions)
    return player, bag, supply


def gain_citizens(
    state: State,
    name: str,
    kind: str,
    count: int = 1,
    t: Tables | None = None,
    rule: str = "",
    **changes: Any,
) -> State:
    """``name`` takes ``count`` citizens of ``kind`` (from wherever the caller took them;
    ``changes``: the caller's other edits, in the same copy). With ``t``, trace points note
    the gain under ``rule`` and the decurions it makes."""
    player = state.players[name]
    gained = evolve(player, citizens=add(player.citizens, kind, count))
    if t is not None and t.recorder is not None:
        noted(t, rule, with_player(state, name, gained, **changes))
    return settle(state, name, gained, t, **changes)


# --- citizen event ------------------------------------------------------------------------


def joined_common_area(state: State, institution: str) -> dict[str, Institution] | None:
    """The institutions once one more citizen has joined ``institution``'s common area, or
    None when it is the third there, which makes a citizen event (``citizen_event``)."""
    place = state.institutions[institution]
    if place.citizens + 1 >= 3:
        return None
    places = dict(state.institutions)
    places[institution] = evolve(place, citizens=place.citizens + 1)
    return places


def citizen_event(state: State, t: Tables, institution: str, **changes: Any) -> State:
    """A third citizen arrives in ``institution``'s common area (``changes``: the caller's
    own edits of other fields, made in the same copy as the emptied common area).

    MUN-CITIZEN-01: at three citizens the family with most influence takes two and the
    second the third. MUN-CITIZEN-02: with one family present the third goes back to the
    bag; with none, all three do. The common area is then empty.
    """
    place = state.institutions[institution]
    kind = t.home[institution]
    places = dict(state.institutions)
    places[institution] = evolve(place, citizens=0)
    order = ranking(state, institution)
    players = state.players
    bag = changes.get("bag", state.bag)
    supply = changes.get("favour_supply", state.favour_supply)
    if not order:
        bag = add(bag, kind, 3)
    for name, count in zip(order, (2, 1), strict=False):
        family = players[name]
        family = evolve(family, citizens=add(family.citizens, kind, count))
        players = {**players, name: family}
    if len(order) == 1:
        bag = add(bag, kind, 1)
    if t.recorder is not None:
        rule = "MUN-CITIZEN-01" if len(order) > 1 else "MUN-CITIZEN-02"
        gained = {"institutions": places, "players": players, "bag": bag}
        noted(t, rule, evolve(state, **{**changes, **gained}), (f"institutions.{institution}",))
    before = players
    for name in order[:2]:
        family, bag, supply = exchanged(players[name], bag, supply)
        players = {**players, name: family}
    # The emptied common area, the families (each settled), the bag and the favour supply
    # change in one copy with the caller's edits.
    emptied = {"institutions": places, "players": players, "bag": bag, "favour_supply": supply}
    after = evolve(state, **{**changes, **emptied})
    if t.recorder is not None:
        note_decurions(t, after, before)
    return after


# --- temple order -------------------------------------------------------------------------


def rerank_temple(state: State) -> State:
    """MUN-TEMPLE-01: order the families by influence in the temple, most first; a tie
    keeps the previous relative order. MUN-TEMPLE-02: families with no influence there come
    last, also in their previous order (so an empty temple changes nothing; our ruling).
    """
    before = {name: i for i, name in enumerate(state.temple_order)}
    order = sorted(
        state.temple_order,
        key=lambda name: (-influence(state.players[name], "temple"), before[name]),
    )
    return evolve(state, temple_order=tuple(order))


def temple_power(state: State, t: Tables) -> State:
    """The temple's power: the temple order re-ranked (MUN-TEMPLE-01), with a trace point."""
    return noted(t, "MUN-TEMPLE-01", rerank_temple(state), ("temple_order",))


def initial_temple_order(state: State) -> State:
    """MUN-PLACE-03: most members in the temple first; a tie goes to the earlier placer."""
    seat = {name: i for i, name in enumerate(state.players)}
    order = sorted(
        state.players,
        key=lambda name: (-influence(state.players[name], "temple"), seat[name]),
    )
    return evolve(state, temple_order=tuple(order))


# --- turn flow ----------------------------------------------------------------------------


def end_turn(state: State, t: Tables, **changes: Any) -> State:
    """The card is carried out: the next player's turn, or the end of the game
    (``changes``: the caller's own edits of other fields, made in the same copy; the turn's
    fields are cleared whatever they say; ``players`` among them are the families that end
    the turn).

    MUN-END-01: once a family has the decurions that end the game, the round is finished
    (the last seat's turn ends it) and the game is over.
    """
    players = changes.get("players", state.players)
    names = list(players)
    index = names.index(state.current)
    if index + 1 < len(names):
        turn: dict[str, Any] = {"phase": "move", "current": names[index + 1]}
    elif any(p.decurions >= t.decurions_to_end for p in players.values()):
        turn = {"phase": "over"}
        if t.recorder is not None:
            over = evolve(state, **{**changes, **TURN_CLEARED, **turn})
            why = f"a family has {t.decurions_to_end} decurions: the round is finished"
            return noted(t, "MUN-END-01", over, ("phase",), why)
    else:
        turn = {"phase": "move", "current": names[0], "round": state.round + 1}
    return evolve(state, **{**changes, **TURN_CLEARED, **turn})


TURN_CLEARED: dict[str, Any] = {
    "moved": (),
    "moved_far": False,
    "card": None,
    "draw_for": "",
    "draws_left": 0,
    "drawn": None,
    "field_for": None,
    "chooser": None,
    "powers": (),
    "power": None,
    "power_user": None,
    "relocated": (),
}
"""The fields of a turn in hand, as the next turn finds them (``end_turn``)."""


def start_draw(
    state: State, purpose: str, chooser: str | None = None, **changes: Any
) -> State | None:
    """Ask chance for a citizen from the bag, or None when the bag is empty (``changes``:
    the caller's other edits, made in the same copy; a ``bag`` among them is the bag the
    citizen comes from).

    MUN-CITIZEN-04: an empty bag gives nothing (our ruling).
    """
    if sum(changes.get("bag", state.bag).values()) == 0:
        return None
    return evolve(state, phase="draw", draw_for=purpose, chooser=chooser, **changes)


def continue_card_draws(state: State, t: Tables, draws_left: int, **changes: Any) -> State:
    """A citizen card draws its next citizen (``draws_left`` more are due), or the turn ends
    (which clears the card's count). ``changes``: the caller's edits, in the same copy."""
    if draws_left > 0:
        drawing = start_draw(state, "card", state.current, draws_left=draws_left - 1, **changes)
        if drawing is not None:
            return drawing
    return end_turn(state, t, **changes)


def next_power(
    state: State, t: Tables, powers: tuple[str, ...] | None = None, **changes: Any
) -> State:
    """Activate the next institution of the power card, or end the turn (``powers``: the
    institutions still to activate, by default ``state.powers``; ``changes``: the caller's
    own edits of other fields, made in the same copy).

    MUN-POWER-01: the family with most influence there uses the power; if no family is
    there nothing happens. MUN-POWER-03: the temple's power is compulsory and has no
    choices, so it is carried out at once; the others wait for their user's decision.
    """
    left = list(state.powers if powers is None else powers)
    while left:
        institution = left.pop(0)
        order = ranking(state, institution)
        if not order:
            continue
        if institution == "temple":
            state = temple_power(state, t)
            continue
        return evolve(
            state,
            phase="power",
            powers=tuple(left),
            power=institution,
            power_user=order[0],
            relocated=(),
            draw_for="",
            chooser=None,
            **changes,
        )
    return end_turn(state, t, **changes)  # which clears ``powers``


def prefect_event(state: State, t: Tables, institution: str, **changes: Any) -> State:
    """The prefect arrives in a new institution (``changes``: the caller's own edits of
    other fields, made in the same copy; ``players`` among them are the families the
    prefect finds, their members as in ``state``).

    MUN-PREFECT-01: the family with most influence takes the favour on the favour field.
    MUN-PREFECT-02: with 3-4 players the second takes the citizen-field citizen.
    MUN-PREFECT-07: if there is no second family the citizen goes back to the bag (our
    ruling). MUN-PREFECT-03: with no family present the favour stays and the citizen goes
    back to the bag. MUN-PREFECT-04: an empty favour field is refilled from the supply (if
    any is left: always, from an unlimited supply) and, with 3-4 players, a new citizen is
    drawn for the citizen field.
    """
    order = ranking(state, institution)
    place = state.institutions[institution]
    fields = len(state.players) >= t.field_min_players
    players = changes.get("players", state.players)
    bag = state.bag
    supply = state.favour_supply
    favour = place.favour
    step = evolve(state, **changes, prefect=institution) if t.recorder is not None else state
    step = noted(t, "MUN-PREFECT-05", step, ("prefect",))
    gainers: list[str] = []
    if order and favour:
        favour = False
        first = players[order[0]]
        first = evolve(first, favours=first.favours + 1)
        players = {**players, order[0]: first}
        gainers.append(order[0])
        if t.recorder is not None:
            place_now = {**step.institutions, institution: evolve(place, favour=False)}
            step = evolve(step, players=players, institutions=place_now)
            path = f"players.{order[0]}.favours"
            step = noted(t, "MUN-PREFECT-01", step, (path,), "most influence takes the favour")
    elif t.recorder is not None and favour:
        why = "nobody is present: the favour stays"
        step = noted(t, "MUN-PREFECT-03", step, (f"institutions.{institution}.favour",), why)
    if place.citizen_field is not None:
        kind = place.citizen_field
        if len(order) > 1:
            second = players[order[1]]
            second = evolve(second, citizens=add(second.citizens, kind, 1))
            players = {**players, order[1]: second}
            gainers.append(order[1])
            rule, why = "MUN-PREFECT-02", "second in influence takes the field's citizen"
        else:
            bag = add(bag, kind, 1)
            rule = "MUN-PREFECT-07" if order else "MUN-PREFECT-03"
            why = "no second family: the field's citizen goes back to the bag"
        if t.recorder is not None:
            here = evolve(step.institutions[institution], citizen_field=None)
            step = evolve(
                step,
                players=players,
                bag=bag,
                institutions={**step.institutions, institution: here},
            )
            step = noted(t, rule, step, (f"institutions.{institution}.citizen_field",), why)
    before = players
    for name in gainers:
        family, bag, supply = exchanged(players[name], bag, supply)
        players = {**players, name: family}
    if t.recorder is not None:
        step = evolve(step, players=players, bag=bag, favour_supply=supply)
        note_decurions(t, step, before)
    if not favour and holds(supply, 1):  # an unlimited supply always holds one
        favour = True
        supply = take(supply, 1)[1]
        if t.recorder is not None:
            here = evolve(step.institutions[institution], favour=True)
            refilled = evolve(
                step, institutions={**step.institutions, institution: here}, favour_supply=supply
            )
            why = "the favour field is refilled from the supply"
            refill = (f"institutions.{institution}.favour", "favour_supply")
            noted(t, "MUN-PREFECT-04", refilled, refill, why)
    # The prefect, the institution (its fields as left above, in one copy), the families
    # (each settled above), the bag and the favour supply change in one copy of the state
    # with what follows.
    places = dict(state.institutions)
    places[institution] = evolve(place, favour=favour, citizen_field=None)
    arrived = {
        **changes,
        "prefect": institution,
        "institutions": places,
        "players": players,
        "bag": bag,
        "favour_supply": supply,
    }
    if fields:
        drawing = start_draw(state, "field", field_for=institution, **arrived)
        if drawing is not None:
            return drawing
    return end_turn(state, t, **arrived)
