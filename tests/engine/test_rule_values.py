"""Rule values are enums that still read and write as the words of the rules files, and
``compare`` answers with an ``Outcome``, never a reason code."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from president.cards import Rank, Suit, parse_cards
from president.combos import Outcome, compare, make_combo
from president.errors import RulesError
from president.refusals import rules_reason
from president.rules import (
    ALLOWED,
    WORD_FIELDS,
    HouseRules,
    JokerMode,
    Revolution,
    Scoring,
    load_rules,
    preset,
)


@pytest.mark.parametrize("name", list(WORD_FIELDS))
def test_every_word_is_one_member_and_every_member_a_word(name: str) -> None:
    assert [member.value for member in WORD_FIELDS[name]] == list(ALLOWED[name])
    # "zero" needs a start above 0, "target" one above the start
    base = {"scoring": "bga", "session_length": 60} if name == "session_end" else {}
    for word in ALLOWED[name]:
        value = getattr(HouseRules(**{**base, name: word}), name)
        assert type(value) is WORD_FIELDS[name] and value == word


def test_words_and_members_make_equal_rules() -> None:
    assert HouseRules(joker_mode="trump") == HouseRules(joker_mode=JokerMode.TRUMP)
    assert hash(HouseRules(revolution="quad")) == hash(HouseRules(revolution=Revolution.QUAD))
    assert preset("bga").scoring is Scoring.BGA


def test_a_rules_file_reads_words_into_members() -> None:
    _, rules = load_rules('preset = "daihinmin"\njoker_mode = "trump"\n')
    assert rules.joker_mode is JokerMode.TRUMP and rules.revolution is Revolution.QUAD


def test_a_bad_word_is_refused_with_the_same_message_as_before() -> None:
    with pytest.raises(RulesError) as caught:
        load_rules('joker_mode = "tame"\n')
    assert str(caught.value) == (
        "bad_value(field='joker_mode', value='tame', allowed=['high', 'trump', 'wild'])")
    with pytest.raises(RulesError) as caught:
        HouseRules(session_end="zero")
    assert str(caught.value) == (
        "bad_value(field='session_end', value='zero', allowed=['hands', 'target', "
        "'minutes', 'open'], scoring='classic')")


def test_a_record_holds_plain_words() -> None:
    rules = replace(preset("bga"), suit_lock="suits")  # a later word field, not at its default
    values = rules.to_dict()
    assert all(type(values[name]) is str for name in WORD_FIELDS)
    assert json.loads(json.dumps(values)) == values
    assert HouseRules.from_dict(values) == rules


def test_compare_answers_an_outcome_and_a_refusal_its_reason() -> None:
    rules = HouseRules()
    king, ace = make_combo("set", 1, Rank.KING, Suit.CLUBS), make_combo("set", 1, Rank.ACE)
    pair = make_combo("set", 2, Rank.ACE)
    assert compare(ace, king, rules, False) is Outcome.BEATS
    assert compare(king, ace, rules, False) is Outcome.TOO_LOW
    assert compare(pair, king, rules, False) is Outcome.WRONG_SIZE
    assert compare(ace, None, rules, False) is Outcome.BEATS
    allowed = HouseRules(equal_rank="allowed")
    assert compare(king, king, allowed, False) is Outcome.EQUAL
    assert compare(king, king, rules, False) is Outcome.TOO_LOW
    assert [outcome.playable for outcome in Outcome] == [True, True, False, False, False]
    assert not isinstance(compare(king, ace, rules, False), str)
    assert rules_reason(parse_cards("AC AD"), king, rules, False) == "wrong_size"
    assert rules_reason(parse_cards("QC"), king, rules, False) == "too_low"
