"""Conquer and Collect taxes: the placement chain, matches, the flip and the payout."""

from __future__ import annotations

from reference.core.errors import RuleViolation
from reference.core.stock import take
from reference.palmyra.common import (
    coins_and_bank,
    evolve,
    finish,
    fits,
    is_icon,
    move_to,
    noted,
    occupied,
    position,
    targets,
    with_added,
    with_player,
    without,
)
from reference.palmyra.draws import plan_draws, start_draws, tiles_choice_matters
from reference.palmyra.events import CollectTaxes, Conquer, EndAction, FlipTile, PlaceTile
from reference.palmyra.lattice import CENTRE, kind_of, neighbours, touching
from reference.palmyra.state import (
    CENSOR,
    CHAIN,
    CHOOSE,
    CONQUER,
    LEGION,
    STARTED,
    TAX,
    TURN,
    Draw,
    State,
)
from reference.palmyra.tables import Config
from reference.palmyra.tiles import LARGE, SMALL, TILES, describe
from reference.palmyra.turns import end_turn


def chain_limit(cfg: Config, state: State, code: str) -> tuple[str, str] | None:
    """Which chain-length rule placing ``code`` next would break, if any (the tiles placed
    so far are looked at only when an icon rule can apply)."""
    placed = state.action.placed
    n = len(placed)
    # PAL-CHAIN-01: an action places at most 4 tiles.
    if n >= cfg.tables.max_tiles:
        limit = cfg.tables.max_tiles
        return "PAL-CHAIN-01", f"{n} tiles are placed already; an action places at most {limit}"
    new_icon = is_icon(code)
    if not new_icon and n < cfg.tables.max_tiles_with_icon:
        return None  # a plain tile within the icon limit: neither icon rule applies
    had_icon = any(is_icon(state.board[c]) for c in placed)
    # PAL-CHAIN-03: at most one icon tile per action; the other tile must be plain.
    if new_icon and had_icon:
        return "PAL-CHAIN-03", "an icon tile is placed already; the other tile must be plain"
    # PAL-CHAIN-02: once an icon tile is used, the action places at most 2 tiles.
    if (new_icon or had_icon) and n >= cfg.tables.max_tiles_with_icon:
        limit = cfg.tables.max_tiles_with_icon
        return "PAL-CHAIN-02", f"an action with an icon tile places at most {limit} tiles"
    return None


def partner_possible(state: State, supply: tuple[str, ...], cell: str) -> bool:
    """Whether a plain tile from ``supply`` could follow a tile placed on ``cell``."""
    sizes = {TILES[c].size for c in supply if not is_icon(c)}
    return any(
        n not in state.board and n not in state.city and kind_of(n) in sizes
        for n in neighbours(cell)
    )


def lone_icon_blocked(
    cfg: Config, state: State, supply: tuple[str, ...], code: str, cell: str
) -> bool:
    """PAL-CHAIN-04 (option lone_icon=forbidden): a first icon tile needs a plain partner."""
    if cfg.options.lone_icon != "forbidden" or state.action.placed or not is_icon(code):
        return False
    # The partner is a second tile, so both chain limits must allow two tiles.
    room = min(cfg.tables.max_tiles, cfg.tables.max_tiles_with_icon)
    return room < 2 or not partner_possible(state, without(supply, code), cell)


def placements(
    cfg: Config, state: State, supply: tuple[str, ...], pos: str, first_only: bool = False
) -> list[tuple[str, str]]:
    """Every legal (tile, cell) placement from a piece at ``pos``, in a stable order."""
    found: list[tuple[str, str]] = []
    codes = sorted(set(supply))
    for cell in targets(state, pos):
        for code in codes:
            if not fits(code, cell) or chain_limit(cfg, state, code) is not None:
                continue
            if lone_icon_blocked(cfg, state, supply, code, cell):
                continue
            found.append((code, cell))
            if first_only:
                return found
    return found


def can_place(cfg: Config, state: State, supply: tuple[str, ...], pos: str) -> bool:
    """Whether at least one placement is possible."""
    return bool(placements(cfg, state, supply, pos, first_only=True))


def holds_emperor(state: State, player: str) -> bool:
    """Whether ``player`` holds the emperor (advanced game)."""
    return state.emperor == player


def start_chain(cfg: Config, state: State, event: Conquer | CollectTaxes) -> State:
    """Begin Conquer or Collect taxes with the named piece."""
    # PAL-TURN-02: an action is chosen only at the start of one's turn.
    if state.phase != TURN:
        raise RuleViolation("PAL-TURN-02", f"{event.player} is in the middle of an action")
    kind = CONQUER if isinstance(event, Conquer) else TAX
    own = LEGION if kind == CONQUER else CENSOR
    if event.piece != own and not holds_emperor(state, event.player):
        if kind == CONQUER:
            # PAL-CONQ-01: the legion conquers (the censor only for the emperor's holder).
            raise RuleViolation("PAL-CONQ-01", "only the legion conquers (without the emperor)")
        # PAL-TAX-01: the censor collects taxes (the legion only for the emperor's holder).
        raise RuleViolation("PAL-TAX-01", "only the censor collects taxes (without the emperor)")
    player = state.players[event.player]
    pos = position(player, event.piece)
    # PAL-CHAIN-05: the action places at least one tile, so it needs a possible placement.
    if not can_place(cfg, state, player.supply, pos):
        raise RuleViolation("PAL-CHAIN-05", f"the {event.piece} has no tile it can place")
    return evolve(state, phase=CHAIN, action=STARTED[kind, event.piece])


def place_tile(cfg: Config, state: State, event: PlaceTile) -> State:
    """Place one tile next to the acting piece, count its matches, move the piece onto it."""
    # PAL-TURN-02: tiles are placed only during Conquer or Collect taxes.
    if state.phase != CHAIN:
        raise RuleViolation("PAL-TURN-02", "tiles are placed only during Conquer or Collect taxes")
    action = state.action
    # PAL-TAX-04: with flip_timing=after_chain, the flip closes the chain.
    if action.closed:
        raise RuleViolation("PAL-TAX-04", "the tile was flipped after the chain; no more tiles")
    limit = chain_limit(cfg, state, event.tile)
    if limit is not None:
        raise RuleViolation(*limit)
    player = state.players[event.player]
    # PAL-PLACE-01: the tile comes face up from the player's own supply.
    if event.tile not in player.supply:
        raise RuleViolation("PAL-PLACE-01", f"{event.player} has no {describe(event.tile)}")
    # PAL-GEO-01: large tiles lie on octagon cells (x+y even), small on square cells.
    if not fits(event.tile, event.cell):
        raise RuleViolation(
            "PAL-GEO-01", f"a {describe(event.tile)} does not fit cell {event.cell}"
        )
    # PAL-PLACE-02: the cell must be empty (no land tile, not the city centre).
    if event.cell in state.board or event.cell in state.city:
        raise RuleViolation("PAL-PLACE-02", f"cell {event.cell} is not empty")
    origin = position(player, action.piece)
    # PAL-PLACE-03: the tile must touch the acting piece's tile; PAL-PLACE-04: from the
    # city centre, any cell touching a city cell (the cell is empty, checked above, so it
    # is one of ``targets`` exactly when it is one of the cells around).
    around = touching(state.city) if origin == CENTRE else neighbours(origin)
    if event.cell not in around:
        if origin == CENTRE:
            raise RuleViolation("PAL-PLACE-04", f"cell {event.cell} does not touch the city centre")
        raise RuleViolation("PAL-PLACE-03", f"cell {event.cell} does not touch cell {origin}")
    # PAL-CHAIN-04: with lone_icon=forbidden, a first icon tile needs a plain partner.
    if lone_icon_blocked(cfg, state, player.supply, event.tile, event.cell):
        raise RuleViolation("PAL-CHAIN-04", "no plain tile could follow this icon tile")
    land, icon = match_parts(cfg, state, event.tile, event.cell, origin)
    # PAL-CHAIN-06: the acting piece moves onto the new tile.
    new_player = move_to(
        player, action.piece, event.cell, supply=without(player.supply, event.tile)
    )
    board = dict(state.board)
    board[event.cell] = event.tile
    earned = action.earned + land + icon
    new_action = evolve(action, placed=(*action.placed, event.cell), earned=earned)
    placed = with_player(state, event.player, new_player, board=board, action=new_action)
    if cfg.recorder is not None:
        _note_placement(cfg, state, event, origin, board, (land, icon))
    return placed


def _note_placement(
    cfg: Config,
    state: State,
    event: PlaceTile,
    origin: str,
    board: dict[str, str],
    parts: tuple[int, int],
) -> None:
    """Trace points of a placement, rule by rule: the tile leaves the supply for the board
    (PAL-PLACE-01), the piece moves onto it (PAL-CHAIN-06), the matches it earns by
    landscape (PAL-MATCH-01) and by icon (PAL-MATCH-02), and a match an occupied tile did
    not pay (PAL-MATCH-03)."""
    player = state.players[event.player]
    action = state.action
    land, icon = parts
    unit = "tiles" if action.kind == CONQUER else "coins"
    laid = evolve(player, supply=without(player.supply, event.tile))
    step = noted(cfg, "PAL-PLACE-01", with_player(state, event.player, laid, board=board))
    moved = move_to(laid, action.piece, event.cell)
    step = noted(cfg, "PAL-CHAIN-06", with_player(step, event.player, moved))
    earned = ("action.earned",)
    after = evolve(action, placed=(*action.placed, event.cell), earned=action.earned + land)
    step = noted(cfg, "PAL-MATCH-01", evolve(step, action=after), earned, f"{land} {unit}")
    if icon:
        after = evolve(after, earned=after.earned + icon)
        step = noted(cfg, "PAL-MATCH-02", evolve(step, action=after), earned, f"{icon} {unit}")
    lost = occupied_matches(cfg, state, event.tile, event.cell, origin)
    if origin in lost:
        why = "the tile the piece came from matches, but matches are counted before it moves"
        noted(cfg, "PAL-MATCH-05", step, earned, why)
    others = len(lost - {origin})
    if others:
        why = f"{others} matching tile(s) occupied: they pay nothing"
        noted(cfg, "PAL-MATCH-03", step, earned, why)
    city = sum(n in state.city for n in neighbours(event.cell))
    if city:
        why = f"{city} city-centre neighbour(s): the city is neutral, it pays nothing"
        noted(cfg, "PAL-MATCH-04", step, earned, why)


def match_value(cfg: Config, state: State, code: str, cell: str, origin: str) -> int:
    """What a tile placed on ``cell`` earns from its neighbours (PAL-MATCH-01..05)."""
    land, icon = match_parts(cfg, state, code, cell, origin)
    return land + icon


def _taken(cfg: Config, state: State, origin: str) -> set[str]:
    """The cells whose tiles pay no match (PAL-MATCH-03: occupied). PAL-MATCH-05: by
    default the acting piece still stands on its origin (occupied)."""
    taken = occupied(state)
    if cfg.options.match_timing == "after_move":
        taken.discard(origin)
    return taken


def match_parts(cfg: Config, state: State, code: str, cell: str, origin: str) -> tuple[int, int]:
    """What a tile placed on ``cell`` earns from its neighbours (PAL-MATCH-01..05), as
    (by landscape, by icon)."""
    taken = _taken(cfg, state, origin)
    tile = TILES[code]
    land_pay, icon_pay = cfg.tables.landscape_reward, cfg.tables.icon_reward
    add = cfg.options.icon_match == "add"
    by_land = by_icon = 0
    for n in neighbours(cell):
        other_code = state.board.get(n)
        # PAL-MATCH-03: occupied tiles never count; PAL-MATCH-04: the city is neutral.
        if other_code is None or n in taken:
            continue
        other = TILES[other_code]
        land = tile.landscape == other.landscape
        icon = tile.icon != "" and tile.icon == other.icon
        # PAL-MATCH-01: same landscape pays 1; PAL-MATCH-02: same icon pays 2 (instead of
        # the landscape's unless option icon_match=add).
        if icon:
            by_icon += icon_pay
            if add and land:
                by_land += land_pay
        elif land:
            by_land += land_pay
    return by_land, by_icon


def occupied_matches(cfg: Config, state: State, code: str, cell: str, origin: str) -> set[str]:
    """The neighbours of ``cell`` that would match a tile ``code`` but are occupied
    (PAL-MATCH-03: they pay nothing); for explanations only."""
    taken = _taken(cfg, state, origin)
    tile = TILES[code]
    lost = set()
    for n in neighbours(cell):
        other_code = state.board.get(n)
        if other_code is None or n not in taken:
            continue
        other = TILES[other_code]
        if tile.landscape == other.landscape or (tile.icon != "" and tile.icon == other.icon):
            lost.add(n)
    return lost


def flip_tile(cfg: Config, state: State, event: FlipTile) -> State:
    """Turn one face-up tile of one's supply face down during Collect taxes."""
    if state.phase != CHAIN:
        raise RuleViolation("PAL-TURN-02", "a tile is flipped only during Collect taxes")
    action = state.action
    player = state.players[event.player]
    # PAL-TAX-03: during Collect taxes one may turn one own face-up tile face down, once.
    if action.kind != TAX:
        raise RuleViolation("PAL-TAX-03", "tiles are turned face down only when collecting taxes")
    if action.flipped:
        raise RuleViolation("PAL-TAX-03", "only one tile is turned face down per action")
    if event.tile not in player.supply:
        raise RuleViolation("PAL-TAX-03", f"{event.player} has no face-up {describe(event.tile)}")
    supply = without(player.supply, event.tile)
    closed = False
    if cfg.options.flip_timing == "before_chain":
        # PAL-TAX-04: the flip comes before the first placement.
        if action.placed:
            raise RuleViolation("PAL-TAX-04", "the tile is flipped before placing tiles")
        # PAL-CHAIN-05: the action must still be able to place a tile.
        if not can_place(cfg, state, supply, position(player, action.piece)):
            raise RuleViolation("PAL-CHAIN-05", "after this flip no tile could be placed")
    else:
        # PAL-TAX-04 (after_chain): the flip comes after the last placement and ends it.
        if not action.placed:
            raise RuleViolation("PAL-TAX-04", "the tile is flipped after placing tiles")
        check_can_end(cfg, state)
        closed = True
    new_player = evolve(player, supply=supply, face_down=with_added(player.face_down, event.tile))
    new_action = evolve(action, flipped=True, closed=closed)
    return with_player(state, event.player, new_player, action=new_action)


def check_can_end(cfg: Config, state: State) -> None:
    """Raise unless the chain may stop here (PAL-CHAIN-05, PAL-CHAIN-04)."""
    placed = state.action.placed
    # PAL-CHAIN-05: Conquer and Collect taxes place at least one tile.
    if not placed:
        raise RuleViolation("PAL-CHAIN-05", "the action has placed no tile yet")
    # PAL-CHAIN-04: with lone_icon=forbidden, an icon tile is never placed alone.
    if (
        cfg.options.lone_icon == "forbidden"
        and len(placed) == 1
        and is_icon(state.board[placed[0]])
    ):
        raise RuleViolation("PAL-CHAIN-04", "an icon tile needs a plain tile in the same action")


def end_chain(cfg: Config, state: State, event: EndAction) -> State:
    """Finish the chain: Conquer earns tiles (drawn now), Collect taxes pays coins."""
    check_can_end(cfg, state)
    action = state.action
    emperor = holds_emperor(state, event.player)
    if action.kind == CONQUER:
        # PAL-CONQ-02: the earned tiles are drawn now; PAL-EMP-05/06: +1 with the emperor,
        # even when nothing matched.
        k = action.earned + (cfg.tables.emperor_conquer_bonus if emperor else 0)
        if tiles_choice_matters(state, k):
            return evolve(state, phase=CHOOSE, action=evolve(action, tiles_due=k))
        large, small, short = plan_draws(state, k, None)
        if cfg.recorder is not None:
            _note_earned(cfg, state, event.player, k, large, small)
        return start_draws(cfg, state, event.player, large, small, short)
    return pay_taxes(cfg, state, event.player, emperor)


def _note_earned(cfg: Config, state: State, name: str, k: int, large: int, small: int) -> None:
    """Trace point of Conquer's end: the earned tiles due, as many large as small
    (PAL-CONQ-03)."""
    draws = (Draw(name, LARGE),) * large + (Draw(name, SMALL),) * small
    why = f"{k} tile(s) earned: {large} large, {small} small"
    noted(cfg, "PAL-CONQ-03", evolve(state, draws_due=draws), ("draws_due",), why)


def pay_taxes(cfg: Config, state: State, name: str, emperor: bool) -> State:
    """PAL-TAX-02, PAL-TAX-05, PAL-EMP-05/06: pay the tax, bonus and emperor coin from the bank."""
    player = state.players[name]
    base = state.action.earned
    face_down = len(player.face_down)
    if state.action.flipped and cfg.options.flip_timing == "after_chain":
        face_down -= 1
    # PAL-TAX-05: more coins than face-down tiles (or at least as many) adds that many coins.
    if cfg.options.tax_threshold == "more_than":
        bonus = face_down if base > face_down else 0
    else:
        bonus = face_down if base >= face_down else 0
    # PAL-EMP-05/06: the emperor's coin comes after the threshold test, even on a zero tax.
    crown = cfg.tables.emperor_tax_bonus if emperor else 0
    owed = base + bonus + crown
    if cfg.recorder is not None:
        _note_payout(cfg, state, name, (base, bonus, crown), face_down, emperor)
    # PAL-END-04: the bank pays what it has; PAL-END-02: its last coin ends the game at once.
    paid, bank = take(state.bank, owed)
    state = with_player(state, name, evolve(player, coins=player.coins + paid), bank=bank)
    if state.bank == 0:
        return finish(state, "bank", cfg)
    return end_turn(cfg, state)


def _note_payout(
    cfg: Config,
    state: State,
    name: str,
    amounts: tuple[int, int, int],
    face_down: int,
    emperor: bool,
) -> None:
    """Trace points of a tax payout, part by part: the tax (PAL-TAX-02), the face-down
    bonus (PAL-TAX-05, decided even when none is due) and the emperor's coin (PAL-EMP-05),
    each as much as the bank paid of it; a part it could not pay in full is PAL-END-04's."""
    base, bonus, crown = amounts
    if bonus:
        bonus_words = f"+{bonus}: {face_down} face-down tile(s) against {base} coins of tax"
    else:
        bonus_words = f"no face-down bonus: {face_down} face-down tile(s), {base} coins of tax"
    parts = [
        ("PAL-TAX-02", base, f"tax {base}: the coins the action's matches earned"),
        ("PAL-TAX-05", bonus, bonus_words),
    ]
    if emperor:
        parts.append(("PAL-EMP-05", crown, f"the emperor's {crown} coin(s)"))
    coins, bank = state.players[name].coins, state.bank
    decided = coins_and_bank(name)
    for rule, owed, why in parts:
        pay, bank = take(bank, owed)
        coins += pay
        step = with_player(state, name, evolve(state.players[name], coins=coins), bank=bank)
        noted(cfg, rule, step, decided, why)
        if pay < owed:
            noted(cfg, "PAL-END-04", step, decided, f"the bank paid {pay} of {owed}")
