"""House rules: one validated field per rule of ``house-rules.md``, presets, TOML files."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from president.errors import RulesError

# ---------------------------------------------------------------- rule values
# One StrEnum per rule whose value is a word: a member equals (and hashes, prints and
# serialises as) its word, so rules files, presets, records and the wire keep the words.


class JokerMode(StrEnum):
    HIGH = "high"
    TRUMP = "trump"
    WILD = "wild"


class RankOrder(StrEnum):
    TWO_HIGH = "two_high"
    ACE_HIGH = "ace_high"


class EqualRank(StrEnum):
    OFF = "off"
    ALLOWED = "allowed"
    SKIP = "skip"


class SetSizeRule(StrEnum):
    SAME = "same"
    BIGGER_BEATS_LOWER = "bigger_beats_lower"
    BIGGER_BEATS_ANY = "bigger_beats_any"


class Bomb(StrEnum):
    OFF = "off"
    TWO_OR_JOKER = "two_or_joker"
    QUAD = "quad"


class SuitTiebreak(StrEnum):
    OFF = "off"
    BIG_TWO = "big_two"


class Revolution(StrEnum):
    OFF = "off"
    QUAD = "quad"
    QUAD_OR_FOUR_IN_A_ROW = "quad_or_four_in_a_row"


class Tax(StrEnum):
    TWO_ONE = "2-1"
    ONE = "1"
    THREE_TWO_ONE = "3-2-1"
    NONE = "none"


class FirstLead(StrEnum):
    LEFT_OF_DEALER = "left_of_dealer"
    DEALER = "dealer"
    THREE_OF_CLUBS = "three_of_clubs"


class LaterLead(StrEnum):
    PRESIDENT = "president"
    SCUM = "scum"
    LEFT_OF_DEALER = "left_of_dealer"


class Dealer(StrEnum):
    SCUM = "scum"
    PRESIDENT = "president"
    ROTATE = "rotate"


class Scoring(StrEnum):
    CLASSIC = "classic"
    POLISH = "polish"
    BGA = "bga"
    PRESIDENCIES = "presidencies"


class SessionEnd(StrEnum):
    HANDS = "hands"
    TARGET = "target"
    MINUTES = "minutes"
    ZERO = "zero"
    OPEN = "open"


class SuitLock(StrEnum):
    OFF = "off"
    SUITS = "suits"
    SUITS_AND_STEP = "suits_and_step"


class TitleSet(StrEnum):
    CLASSIC = "classic"
    SCUM = "scum"
    CAPITALISM = "capitalism"
    BGA = "bga"
    DAIFUGO = "daifugo"


# The fields whose values are words, and their enums.
WORD_FIELDS: dict[str, type[StrEnum]] = {
    "joker_mode": JokerMode, "rank_order": RankOrder, "equal_rank": EqualRank,
    "set_size_rule": SetSizeRule, "bomb": Bomb, "suit_tiebreak": SuitTiebreak,
    "revolution": Revolution, "tax": Tax, "first_lead": FirstLead, "later_lead": LaterLead,
    "dealer": Dealer, "scoring": Scoring, "session_end": SessionEnd, "title_set": TitleSet,
    "suit_lock": SuitLock,
}

# Allowed values of each field, in the order a set-up screen offers them.
ALLOWED: dict[str, tuple[Any, ...]] = {
    "decks": ("auto", 1, 2),
    "jokers": (0, 1, 2),
    "joker_mode": ("high", "trump", "wild"),
    "rank_order": ("two_high", "ace_high"),
    "two_wraps": (False, True),
    "transparent_threes": (False, True),
    "pass_locks_out": (False, True),
    "equal_rank": ("off", "allowed", "skip"),
    "skip_not_with_best": (False, True),
    "skip_two_players_replay": (True, False),
    "set_size_rule": ("same", "bigger_beats_lower", "bigger_beats_any"),
    "sequences": (0, 3, 4, 5, 6, 7),
    "bomb": ("off", "two_or_joker", "quad"),
    "suit_tiebreak": ("off", "big_two"),
    "revolution": ("off", "quad", "quad_or_four_in_a_row"),
    "revolution_reverses_direction": (False, True),
    "tax": ("2-1", "1", "3-2-1", "none"),
    "first_lead": ("left_of_dealer", "dealer", "three_of_clubs"),
    "later_lead": ("president", "scum", "left_of_dealer"),
    "dealer": ("scum", "president", "rotate"),
    "reseat_by_rank": (False, True),
    "scoring": ("classic", "polish", "bga", "presidencies"),
    "session_end": ("hands", "target", "minutes", "zero", "open"),
    "session_length": (1, 3, 5, 10, 15, 20, 30, 45, 60, 90, 120),
    "decree": (False, True),
    "title_set": ("classic", "scum", "capitalism", "bga", "daifugo"),
    "min_players": (3, 4, 5, 6, 7, 8),
    "max_players": (3, 4, 5, 6, 7, 8),
    # Daihinmin rules (issue 11): written in a rules record only when not at their default.
    "eight_cut": (False, True),
    "jack_back": (False, True),
    "five_skip": (False, True),
    "nine_reverse": (False, True),
    "spade_three_return": (False, True),
    "downfall": (False, True),
    "forbidden_finish": (False, True),
    "suit_lock": ("off", "suits", "suits_and_step"),
    "seven_pass": (False, True),
    "ten_discard": (False, True),
    "runs_same_suit": (False, True),
    "run_revolution": (False, True),
}

# Fields added after the first hand histories were written: ``to_dict`` leaves them out
# while they are at their default, so that a record of the older rules reads the same.
LATER_FIELDS = (
    "eight_cut", "jack_back", "five_skip", "nine_reverse", "spade_three_return", "downfall",
    "forbidden_finish", "suit_lock", "seven_pass", "ten_discard", "runs_same_suit",
    "run_revolution",
)

# Fields whose value may be any integer in a range rather than one of ALLOWED.
INTEGER_RANGES: dict[str, range] = {"session_length": range(1, 1001)}

TAX_AMOUNTS: dict[str, tuple[int, ...]] = {"2-1": (2, 1), "1": (1,), "3-2-1": (3, 2, 1), "none": ()}

MIN_PLAYERS = 3
MAX_PLAYERS = 8


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The rules of one table. Field names are the rule names of ``house-rules.md``."""

    decks: str | int = "auto"
    jokers: int = 0
    joker_mode: JokerMode = JokerMode.HIGH
    rank_order: RankOrder = RankOrder.TWO_HIGH
    two_wraps: bool = False
    transparent_threes: bool = False
    pass_locks_out: bool = False
    equal_rank: EqualRank = EqualRank.OFF
    skip_not_with_best: bool = False
    skip_two_players_replay: bool = True
    set_size_rule: SetSizeRule = SetSizeRule.SAME
    sequences: int = 0
    bomb: Bomb = Bomb.OFF
    suit_tiebreak: SuitTiebreak = SuitTiebreak.OFF
    revolution: Revolution = Revolution.OFF
    revolution_reverses_direction: bool = False
    tax: Tax = Tax.TWO_ONE
    first_lead: FirstLead = FirstLead.LEFT_OF_DEALER
    later_lead: LaterLead = LaterLead.PRESIDENT
    dealer: Dealer = Dealer.SCUM
    reseat_by_rank: bool = False
    scoring: Scoring = Scoring.CLASSIC
    session_end: SessionEnd = SessionEnd.HANDS
    session_length: int = 10
    decree: bool = False
    title_set: TitleSet = TitleSet.CLASSIC
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    eight_cut: bool = False  # 8-cut (8切り): a play holding an 8 clears the pile
    jack_back: bool = False  # 11-back (J-back): a play holding a jack reverses the order
    five_skip: bool = False  # each 5 played skips the next player
    nine_reverse: bool = False  # a play holding a 9 reverses the direction of play
    spade_three_return: bool = False  # the 3 of spades beats a lone joker (スペ3返し)
    downfall: bool = False  # miyako-ochi (都落ち): the President not first drops to last
    forbidden_finish: bool = False  # going out on a strong card puts you last (反則上がり)
    suit_lock: SuitLock = SuitLock.OFF  # shibari (しばり): same suits twice bind the trick
    seven_pass: bool = False  # 7-pass (7渡し): pass one card of your choice per 7 played
    ten_discard: bool = False  # 10-discard (10捨て): discard one card of your choice per 10
    runs_same_suit: bool = False  # kaidan (階段): a run's cards are all of one suit
    run_revolution: bool = False  # a run of four or more cards turns the rank order

    def __post_init__(self) -> None:
        """Check every value (words given as plain strings too), then hold each word as
        its enum member."""
        for field in fields(self):
            check_value(field.name, getattr(self, field.name))
        for name, kind in WORD_FIELDS.items():
            value = getattr(self, name)
            if type(value) is not kind:
                object.__setattr__(self, name, kind(value))  # frozen: set once, here
        if self.min_players > self.max_players:
            raise RulesError(
                "bad_value", field="max_players", value=self.max_players,
                allowed=[n for n in ALLOWED["max_players"] if n >= self.min_players],
            )
        start = 50 if self.scoring == "bga" else 0  # roles.STARTING_SCORE
        if self.session_end == "zero" and start == 0:
            # "someone at 0" only means something when everyone starts above 0 (bga scoring)
            raise RulesError(
                "bad_value", field="session_end", value="zero",
                allowed=[v for v in ALLOWED["session_end"] if v != "zero"],
                scoring=self.scoring.value,
            )
        if self.session_end == "target" and self.session_length <= start:
            raise RulesError(
                "bad_value", field="session_length", value=self.session_length,
                allowed=[f"{start + 1}..{INTEGER_RANGES['session_length'].stop - 1}"],
                scoring=self.scoring.value,
            )

    def to_dict(self) -> dict[str, Any]:
        """Every field, but the later ones only where they differ from their default."""
        values = asdict(self)
        for name in WORD_FIELDS:
            values[name] = values[name].value  # plain words, as a record always had them
        for name in LATER_FIELDS:
            if values[name] == _DEFAULTS[name]:
                del values[name]
        return values

    @classmethod
    def from_dict(cls, values: dict[str, Any], base: HouseRules | None = None) -> HouseRules:
        """``base`` (default: the core game) with ``values`` applied; unknown keys refused."""
        known = {field.name for field in fields(cls)}
        for name in values:
            if name not in known:
                raise RulesError(
                    "unknown_field", field=name, value=values[name], allowed=sorted(known)
                )
        return replace(base or cls(), **values)

    def deck_count(self, players: int) -> int:
        if self.decks == "auto":
            return 2 if players >= 6 else 1
        return int(self.decks)

    def tax_amounts(self) -> tuple[int, ...]:
        return TAX_AMOUNTS[self.tax]

    def tax_transfers(self, order: Sequence[int]) -> list[tuple[int, int, int]]:
        """(giver, receiver, cards) of the tax after a hand finished in ``order``: the
        last gives the first, the second last the second, … while the pairs do not meet."""
        out = []
        for step, amount in enumerate(self.tax_amounts()):
            if step >= len(order) - 1 - step:
                break
            out.append((order[len(order) - 1 - step], order[step], amount))
        return out


_DEFAULTS: dict[str, Any] = {field.name: field.default for field in fields(HouseRules)}


def check_player_count(rules: HouseRules, players: int) -> None:
    """``RulesError`` (bad_player_count) unless ``rules`` seat ``players`` players."""
    low, high = max(MIN_PLAYERS, rules.min_players), min(MAX_PLAYERS, rules.max_players)
    if not low <= players <= high:
        raise RulesError("bad_player_count", field="players", value=players,
                         allowed=list(range(low, high + 1)))


def check_value(name: str, value: Any) -> None:
    allowed = ALLOWED[name]
    if name in INTEGER_RANGES:
        ok = type(value) is int and value in INTEGER_RANGES[name]
    else:
        # bool is an int subclass: compare types so that True never passes for 1. A word
        # may come as a plain string or as its enum member.
        ok = any(
            (isinstance(value, str) if type(choice) is str else type(value) is type(choice))
            and value == choice for choice in allowed
        )
    if not ok:
        shown = allowed if name not in INTEGER_RANGES else [
            f"{INTEGER_RANGES[name].start}..{INTEGER_RANGES[name].stop - 1}"
        ]
        raise RulesError("bad_value", field=name, value=value, allowed=list(shown))


DAIHINMIN = HouseRules(
    jokers=1, joker_mode=JokerMode.WILD, revolution=Revolution.QUAD, eight_cut=True,
    suit_lock=SuitLock.SUITS,
    sequences=3, runs_same_suit=True, run_revolution=True, spade_three_return=True,
    tax=Tax.TWO_ONE, title_set=TitleSet.DAIFUGO,
)

PRESETS: dict[str, HouseRules] = {
    "classic": HouseRules(),
    "capitalism": HouseRules(title_set=TitleSet.CAPITALISM),
    "daihinmin": DAIHINMIN,  # the Daihinmin AI contest's (UECda) base set
    "polish": HouseRules(
        min_players=4, max_players=7, tax=Tax.ONE, scoring=Scoring.POLISH,
        session_end=SessionEnd.TARGET, session_length=10, dealer=Dealer.PRESIDENT,
        later_lead=LaterLead.LEFT_OF_DEALER, title_set=TitleSet.SCUM,
    ),
    "bga": HouseRules(
        min_players=4, max_players=8, jokers=1, joker_mode=JokerMode.TRUMP,
        pass_locks_out=True, revolution=Revolution.QUAD, later_lead=LaterLead.SCUM,
        scoring=Scoring.BGA, session_end=SessionEnd.ZERO, skip_not_with_best=True,
        title_set=TitleSet.BGA,
    ),
    # The Japanese local rules beside the contest's (listed last: set-up screens keep
    # the older presets where they were).
    "daihinmin_local": replace(
        DAIHINMIN, jack_back=True, downfall=True, forbidden_finish=True, five_skip=True,
        nine_reverse=True, seven_pass=True, ten_discard=True,
    ),
}


def preset(name: str) -> HouseRules:
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError("bad_value", field="preset", value=name, allowed=list(PRESETS)) from None


def load_rules(text: str) -> tuple[str, HouseRules]:
    """Parse a rules TOML document: ``preset = "bga"`` plus field overrides.

    Overrides may stand at the top level or in a ``[rules]`` table.
    """
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RulesError("bad_toml", detail=str(error)) from None
    preset_name = document.pop("preset", "classic")
    if not isinstance(preset_name, str):
        raise RulesError("bad_value", field="preset", value=preset_name, allowed=list(PRESETS))
    overrides = document.pop("rules", {})
    if not isinstance(overrides, dict):
        raise RulesError("bad_value", field="rules", value=overrides, allowed=["a table"])
    overrides = {**document, **overrides}
    return preset_name, HouseRules.from_dict(overrides, preset(preset_name))


def rules_for(preset_name: str, path: str | Path | None) -> tuple[str, HouseRules]:
    """What a command's ``--preset``/``--rules`` ask for: the rules file (its own preset
    plus overrides) when there is one, else the preset."""
    return load_rules_file(path) if path else (preset_name, preset(preset_name))


def load_rules_file(path: str | Path) -> tuple[str, HouseRules]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise RulesError("unreadable_file", path=str(path), detail=error.strerror) from None
    return load_rules(text)
