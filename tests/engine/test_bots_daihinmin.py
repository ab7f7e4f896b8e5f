"""The Daihinmin pack played with a plan (issue 30): one position per rule where the bots
before it chose worse. Medium decides; hard searches the medium policy's options (with a
deal limit, so that it is deterministic) and must not undo the plan."""

from __future__ import annotations

import pytest
from engine_kit import position, run

from president.actions import Action, Discard, Give, Pass, Play
from president.bots import HardBot, MediumBot
from president.bots.knowledge import PlayTracker
from president.cards import parse_cards
from president.engine import apply
from president.roles import Role
from president.rules import PRESETS
from president.state import State
from president.view import view

LOCAL = PRESETS["daihinmin_local"]
LEVELS = ("medium", "hard")


def _choice(level: str, state: State, seat: int = 0,
            seen: dict[int, str] | None = None) -> Action:
    """``seen``: cards the seat saw played in earlier tricks of the hand, by seat."""
    memory = PlayTracker()
    if seen:
        memory.hand_number = state.hand_number
        memory.seen = {who: list(parse_cards(cards)) for who, cards in seen.items()}
    bot = MediumBot(0, memory) if level == "medium" else HardBot(0, 60.0, deals=16, memory=memory)
    return bot.choose(view(state, seat))


def _cards(action: Action) -> str:
    if isinstance(action, Pass):
        return "pass"
    assert isinstance(action, (Play, Give, Discard))
    shown = " ".join(str(card) for card in action.cards)
    declared = getattr(action, "declared", ())
    return shown + ("=" + " ".join(str(card) for card in declared) if declared else "")


@pytest.mark.parametrize("level", LEVELS)
def test_a_wild_joker_is_declared_as_the_card_that_locks_the_trick_shut(level: str) -> None:
    """K♥ + joker on Q♥ Q♠: declared K♠ it locks the pile to ♥♠, and with A♥ and 2♠ gone
    nobody holds a pair of those suits above it: the trick is won (declared K♣, any pair
    of aces or 2s answers it)."""
    state = position(["KH JK 9C 4D", "5C 6D 7S 8H QD", "5D 6H 7D 8S", "5H 6S 7C 8D QH QS"],
                     LOCAL, turn=3)
    state, _ = run(state, (3, "QH QS"))
    assert _cards(_choice(level, state, seen={1: "AH", 2: "2S"})) == "KH JK=KS"


@pytest.mark.parametrize("level", LEVELS)
def test_an_8_cut_takes_the_lead_before_the_last_card(level: str) -> None:
    """8♠ 3♣ to lead: the 8 clears the pile and the 3 goes out; leading the 3 leaves the 8,
    a card no one may go out on (forbidden finish)."""
    state = position(["8S 3C", "5C 6D 7S 9H QH QD", "5D 6H 7D 9S", "5H 6S 7C 9D"], LOCAL)
    assert _cards(_choice(level, state)) == "8S"


@pytest.mark.parametrize("level", LEVELS)
def test_a_run_of_four_revolts_when_the_rest_of_the_hand_is_low(level: str) -> None:
    """9♠-Q♠ turns the order (run_revolution): the 3s and 4s kept become the strongest."""
    state = position(["9S 10S JS QS 3C 3D 4C 4D", "5C 6D 7D 9H QH QD", "5D 6H 3H 9D",
                      "5H 6C 7C 9C"], LOCAL)
    assert _cards(_choice(level, state)) == "9S 10S JS QS"


@pytest.mark.parametrize("level", LEVELS)
def test_a_suit_lock_is_set_where_this_seat_can_still_answer(level: str) -> None:
    """On 4♥, 7♥ locks the pile to hearts and K♥ is kept to answer in them; 6♣ starts no
    lock."""
    state = position(["6C 7H KH 9D 9S", "5C 6D 7S 8H QD", "5D 10H 7D 8S", "4H 6S 7C 8D QS"],
                     LOCAL, turn=3)
    state, _ = run(state, (3, "4H"))
    assert _cards(_choice(level, state)) == "7H"


def _after_an_11_back(mine: str) -> State:
    """Seat 3 leads J♥ (an 11-back) and seat 0 beats it with the 7 or 10 it holds."""
    state = position([mine, "5C 6D 7S 8H QD", "5D 10H 7D 8S", "JH 6S 7H 8D QS"], LOCAL, turn=3)
    state, _ = run(state, (3, "JH"))
    low = next(c for c in parse_cards(mine) if c.rank in (7, 10))
    state, _ = apply(state, Play(0, (low,)))
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_a_7_pass_during_an_11_back_gives_the_card_weakest_after_the_trick(level: str) -> None:
    """The 11-back ends with the trick: the 2 is strong again, the 3 the weakest."""
    assert _cards(_choice(level, _after_an_11_back("7C 2S 3D 9H 9D KC"))) == "3D"


@pytest.mark.parametrize("level", LEVELS)
def test_a_10_discard_during_an_11_back_drops_the_card_weakest_after_it(level: str) -> None:
    assert _cards(_choice(level, _after_an_11_back("10C 2S 3D 9H 9D KC"))) == "3D"


@pytest.mark.parametrize("level", LEVELS)
def test_a_forbidden_finish_is_avoided_by_playing_the_2_while_another_card_is_left(
        level: str) -> None:
    """2♠ 6♦ on a 4: following with the 6 leaves a lone 2, on which no one may go out."""
    state = position(["2S 6D", "5C 6C 7D 9H QH QD", "5D 6H 3D 9S", "4H 4C 7C 9D"], LOCAL,
                     turn=3)
    state, _ = run(state, (3, "4H"))
    assert _cards(_choice(level, state)) == "2S"


@pytest.mark.parametrize("level", LEVELS)
def test_a_president_facing_downfall_fights_for_the_lead_when_someone_nears_the_end(
        level: str) -> None:
    """Downfall: the President not first out drops to last. Seat 3 is down to three cards
    after K♦: the President breaks its pair of 2s to take the trick rather than wait."""
    roles = (Role.PRESIDENT, Role.VICE_PRESIDENT, Role.VICE_SCUM, Role.SCUM)
    state = position(["2S 2H 3C 4D 5C 6D 7H 9S 10C", "5D 6S 7S 9H QD JD JC", "8D 9D 10H JH",
                      "KD 4H 4C 6C"], LOCAL, turn=3, roles=roles, hand_number=2)
    state, _ = run(state, (3, "KD"))
    assert _cards(_choice(level, state)) == "2H"


def test_an_11_back_is_known_to_take_the_trick_when_nothing_lower_is_out() -> None:
    """On 6♣, J♠ turns the order for the trick (11-back): with every 3 to 10 seen but its
    own 10♠, and the joker, nobody can answer it (the bots before counted the cards above
    the jack). Whether to take the trick now is the search's to weigh."""
    state = position(["10S JS 5D 5H", "QC QD KH AS", "KC KS AH AD", "6C QH QS 2C 2D"], LOCAL,
                     turn=3)
    state, _ = run(state, (3, "6C"))
    memory = PlayTracker()
    memory.hand_number = state.hand_number
    memory.seen = {1: list(parse_cards(
        "3C 3D 3H 3S 4C 4D 4H 4S 5C 5S 6D 6H 6S 7C 7D 7H 7S 8C 8D 8H 8S "
        "9C 9D 9H 9S 10C 10D 10H JK"))}
    hints = {_cards(h.action): h.reason for h in MediumBot(0, memory).suggest(view(state, 0))}
    assert hints["JS"] == "take_trick" and hints["10S"] == "follow_low"
