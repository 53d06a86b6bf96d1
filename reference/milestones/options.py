"""The options of Milestones: where players really differ."""

from __future__ import annotations

import attrs

TIE_BREAKS: tuple[str, ...] = ("shared", "goods_and_coins")


@attrs.frozen
class MilestonesOptions:
    """Game options; data values (costs, thresholds, map, tiles) are changed by `profile`."""

    tie_break: str = attrs.field(default="shared", validator=attrs.validators.in_(TIE_BREAKS))
    """MIL-END-05: a tie for most points is `shared` (default) or goes to the tied player
    with the most goods and coins left (`goods_and_coins`), then shared."""
