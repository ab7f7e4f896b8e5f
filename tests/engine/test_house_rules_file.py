"""HouseRules: validated fields, presets as house-rules.md describes them, TOML files."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from president.engine import new_session
from president.errors import RulesError
from president.rules import ALLOWED, PRESETS, HouseRules, load_rules, load_rules_file, preset


def test_every_field_has_allowed_values_and_default_is_allowed() -> None:
    default = HouseRules()
    for field in fields(HouseRules):
        assert field.name in ALLOWED
        assert getattr(default, field.name) in ALLOWED[field.name]


@pytest.mark.parametrize("name", sorted(ALLOWED))
def test_every_allowed_value_accepted(name: str) -> None:
    for value in ALLOWED[name]:
        if name == "min_players":
            HouseRules(min_players=value, max_players=8)
        elif name == "max_players":
            HouseRules(min_players=3, max_players=value)
        elif name == "session_end":
            rules = HouseRules(session_end=value, scoring="bga", session_length=60)
            assert rules.session_end == value
        else:
            assert getattr(HouseRules(**{name: value}), name) == value


def test_session_end_zero_needs_a_scoring_that_starts_above_zero() -> None:
    with pytest.raises(RulesError) as caught:
        HouseRules(session_end="zero", scoring="classic")
    assert caught.value.params["field"] == "session_end"
    assert "zero" not in caught.value.params["allowed"]


def test_session_end_target_must_lie_above_the_starting_score() -> None:
    with pytest.raises(RulesError) as caught:
        HouseRules(session_end="target", scoring="bga", session_length=50)
    assert caught.value.params["field"] == "session_length"
    assert HouseRules(session_end="target", scoring="bga", session_length=51).session_length == 51


@pytest.mark.parametrize(("name", "value"), [
    ("decks", 3), ("jokers", 3), ("joker_mode", "wilder"), ("two_wraps", 1), ("jokers", True),
    ("equal_rank", True), ("sequences", 2), ("tax", "2"), ("session_length", 0),
    ("session_length", 1001), ("scoring", "poker"), ("decks", "2"),
])
def test_bad_value_names_field_value_and_allowed(name: str, value: object) -> None:
    with pytest.raises(RulesError) as caught:
        HouseRules(**{name: value})
    error = caught.value
    assert error.code == "bad_value"
    assert error.params["field"] == name and error.params["value"] == value
    assert error.params["allowed"]


def test_min_players_above_max_refused() -> None:
    with pytest.raises(RulesError) as caught:
        HouseRules(min_players=6, max_players=4)
    assert caught.value.params["field"] == "max_players"


def test_presets_match_house_rules_page() -> None:
    assert PRESETS["classic"] == HouseRules()
    capitalism = preset("capitalism")
    assert capitalism.title_set == "capitalism"
    assert HouseRules.from_dict({"title_set": "classic"}, capitalism) == HouseRules()
    polish = preset("polish")
    assert (polish.min_players, polish.max_players) == (4, 7)
    assert polish.tax == "1" and polish.scoring == "polish" and polish.session_end == "target"
    bga = preset("bga")
    assert (bga.min_players, bga.max_players) == (4, 8)
    assert (bga.jokers, bga.joker_mode, bga.pass_locks_out) == (1, "trump", True)
    assert (bga.revolution, bga.later_lead, bga.scoring, bga.session_end) == (
        "quad", "scum", "bga", "zero")
    assert bga.skip_not_with_best
    assert preset("daihinmin").revolution != "off"


def test_unknown_preset_refused() -> None:
    with pytest.raises(RulesError) as caught:
        preset("uno")
    assert caught.value.params == {"field": "preset", "value": "uno", "allowed": list(PRESETS)}


@pytest.mark.parametrize(("name", "count"), [("polish", 3), ("polish", 8), ("bga", 3)])
def test_preset_player_range_enforced(name: str, count: int) -> None:
    with pytest.raises(RulesError) as caught:
        new_session(preset(name), [f"p{i}" for i in range(count)], 1)
    assert caught.value.code == "bad_player_count"


def test_load_rules_preset_plus_overrides_top_level_and_table() -> None:
    name, rules = load_rules('preset = "bga"\njokers = 2\n[rules]\nequal_rank = "skip"\n')
    assert name == "bga"
    assert rules == HouseRules.from_dict({"jokers": 2, "equal_rank": "skip"}, preset("bga"))


def test_load_rules_default_preset_classic() -> None:
    assert load_rules("") == ("classic", HouseRules())


def test_load_rules_bad_value_names_field() -> None:
    with pytest.raises(RulesError) as caught:
        load_rules('preset = "classic"\ntax = "4-3-2-1"\n')
    assert caught.value.params == {
        "field": "tax", "value": "4-3-2-1", "allowed": ["2-1", "1", "3-2-1", "none"]}


@pytest.mark.parametrize(("text", "code", "field"), [
    ('colour = "red"\n', "unknown_field", "colour"),
    ('preset = "uno"\n', "bad_value", "preset"),
    ("preset = 3\n", "bad_value", "preset"),
    ('rules = "x"\n', "bad_value", "rules"),
])
def test_load_rules_bad_documents(text: str, code: str, field: str) -> None:
    with pytest.raises(RulesError) as caught:
        load_rules(text)
    assert caught.value.code == code and caught.value.params["field"] == field


def test_load_rules_bad_toml() -> None:
    with pytest.raises(RulesError) as caught:
        load_rules("jokers = = 2")
    assert caught.value.code == "bad_toml"


def test_load_rules_file(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('preset = "polish"\nreseat_by_rank = true\n', encoding="utf-8")
    name, rules = load_rules_file(path)
    assert name == "polish" and rules.reseat_by_rank and rules.tax == "1"
    with pytest.raises(RulesError) as caught:
        load_rules_file(tmp_path / "missing.toml")
    assert caught.value.code == "unreadable_file"


def test_rules_dict_round_trip() -> None:
    for rules in PRESETS.values():
        assert HouseRules.from_dict(rules.to_dict()) == rules
