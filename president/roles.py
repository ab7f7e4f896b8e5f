"""Roles by finishing place, for 3 to 8 players, and the scores they earn."""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    PRESIDENT = "president"
    VICE_PRESIDENT = "vice_president"
    UPPER_NEUTRAL = "upper_neutral"
    NEUTRAL = "neutral"
    LOWER_NEUTRAL = "lower_neutral"
    VICE_SCUM = "vice_scum"
    SCUM = "scum"
    SUPER_SCUM = "super_scum"


_P, _VP, _UN, _N, _LN, _VS, _S, _SS = Role

# Finishing place -> role. 3 players: no vice roles; 6+: upper/lower neutral;
# 7+: the last is the Super Scum (house rule "Role titles").
ROLES_BY_TABLE_SIZE: dict[int, tuple[Role, ...]] = {
    3: (_P, _N, _S),
    4: (_P, _VP, _VS, _S),
    5: (_P, _VP, _N, _VS, _S),
    6: (_P, _VP, _UN, _LN, _VS, _S),
    7: (_P, _VP, _UN, _N, _LN, _VS, _SS),
    8: (_P, _VP, _UN, _N, _N, _LN, _VS, _SS),
}

_POINTS: dict[str, dict[Role, int]] = {
    "classic": {_P: 3, _VP: 2, _UN: 0, _N: 0, _LN: 0, _VS: -2, _S: -3, _SS: -3},
    "polish": {_P: 2, _VP: 1, _UN: 0, _N: 0, _LN: 0, _VS: -1, _S: -2, _SS: -2},
    "bga": {_P: 5, _VP: 0, _UN: -5, _N: -5, _LN: -5, _VS: -10, _S: -15, _SS: -15},
    "presidencies": {_P: 1, _VP: 0, _UN: 0, _N: 0, _LN: 0, _VS: 0, _S: 0, _SS: 0},
}

STARTING_SCORE = {"classic": 0, "polish": 0, "bga": 50, "presidencies": 0}


def roles_for_places(players: int) -> tuple[Role, ...]:
    return ROLES_BY_TABLE_SIZE[players]


def points(scoring: str, role: Role) -> int:
    return _POINTS[scoring][role]
