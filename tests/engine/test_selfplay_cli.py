"""``president selfplay`` and ``president replay``: deterministic histories that replay."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from president.bots import BOT_KINDS, RandomBot
from president.cli.main import main
from president.history import read_history_file, replay_history
from president.rules import PRESETS


def selfplay(tmp_path: Path, name: str, *options: str) -> tuple[int, Path]:
    history = tmp_path / name
    code = main(["selfplay", *options, "--history", str(history)])
    return code, history


def line_types(path: Path) -> list[str]:
    return [json.loads(line)["type"] for line in path.read_text(encoding="utf-8").splitlines()]


CLASSIC_20 = ("--players", "5", "--preset", "classic", "--hands", "20", "--seed", "1")


def test_selfplay_twice_gives_byte_identical_histories_that_replay(tmp_path, capsys):
    code_a, first = selfplay(tmp_path, "a.jsonl", *CLASSIC_20)
    code_b, second = selfplay(tmp_path, "b.jsonl", *CLASSIC_20)
    assert code_a == code_b == 0
    assert first.read_bytes() == second.read_bytes()
    kinds = line_types(first)
    assert kinds.count("hand_end") == 20 and kinds[-1] == "session_end"
    out = capsys.readouterr().out
    assert "5 players, preset classic, 20 hands, seed 1" in out and "winners:" in out

    assert main(["replay", str(first)]) == 0
    out = capsys.readouterr().out.splitlines()
    hands = [line for line in out if line.startswith("hand ")]
    assert [line.split(":")[0] for line in hands] == [f"hand {n}" for n in range(1, 21)]
    assert "(President, " in hands[0] and "Random 1" in hands[0]  # the role's title
    assert out[-1] == f"history OK: {first}"

    # The installed console script, in a fresh process, writes the same bytes.
    script = shutil.which("president") or str(Path(sys.executable).parent / "president")
    third = tmp_path / "c.jsonl"
    run = subprocess.run(
        [script, "selfplay", *CLASSIC_20, "--history", str(third)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert run.returncode == 0, run.stderr
    assert third.read_bytes() == first.read_bytes()


def test_other_seeds_give_other_histories(tmp_path):
    _, first = selfplay(tmp_path, "a.jsonl", "--players", "4", "--hands", "2", "--seed", "1")
    _, second = selfplay(tmp_path, "b.jsonl", "--players", "4", "--hands", "2", "--seed", "2")
    assert first.read_bytes() != second.read_bytes()


@pytest.mark.parametrize("preset_name", sorted(PRESETS))
def test_every_preset_writes_a_history_that_replays(tmp_path, preset_name, capsys):
    code, path = selfplay(tmp_path, "h.jsonl", "--players", "5", "--preset", preset_name,
                          "--hands", "4", "--seed", "7")
    assert code == 0
    header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert header["preset"] == preset_name
    state, summaries = replay_history(read_history_file(path))
    preset_rules = PRESETS[preset_name]
    if preset_rules.session_end == "hands":  # --hands is the session's length
        assert len(summaries) == 4
        assert state.rules == replace(preset_rules, session_length=4)
    else:  # the rules' own end stays; --hands stops the session at 4 hands at the latest
        assert 1 <= len(summaries) <= 4
        assert state.rules == preset_rules
        assert "overridden by --hands 4" in capsys.readouterr().out
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0


def test_a_rules_file_with_skips_and_revolutions_replays(tmp_path):
    rules = tmp_path / "variant.toml"
    rules.write_text(
        'preset = "daihinmin"\n[rules]\nequal_rank = "skip"\n'
        'revolution = "quad_or_four_in_a_row"\nrevolution_reverses_direction = true\n'
        'decks = 2\njokers = 2\nsequences = 3\ntransparent_threes = true\ntax = "3-2-1"\n'
        "reseat_by_rank = true\n",
        encoding="utf-8",
    )
    seen: set[str] = set()
    for seed in range(1, 8):
        code, path = selfplay(tmp_path, f"v{seed}.jsonl", "--players", "6", "--rules",
                              str(rules), "--hands", "3", "--seed", str(seed))
        assert code == 0
        assert json.loads(path.read_text(encoding="utf-8").splitlines()[0])["preset"] == (
            "daihinmin")
        replay_history(read_history_file(path))
        seen.update(line_types(path))
        if {"skip", "revolution"} <= seen:
            break
    assert {"skip", "revolution", "tax", "clear", "out"} <= seen


def test_a_bad_rules_file_exits_2_naming_field_value_and_allowed(tmp_path, capsys):
    rules = tmp_path / "bad.toml"
    rules.write_text('preset = "classic"\njokers = 5\n', encoding="utf-8")
    code = main(["selfplay", "--rules", str(rules), "--hands", "2"])
    err = capsys.readouterr().err
    assert code == 2
    assert "field='jokers'" in err and "value=5" in err and "allowed=[0, 1, 2]" in err


@pytest.mark.parametrize("options, field", [
    (["--players", "2"], "players"),                      # below three players
    (["--players", "8", "--preset", "polish"], "players"),  # polish seats 4 to 7
    (["--hands", "0"], "hands"),
    (["--hands", "1001"], "hands"),
])
def test_impossible_tables_exit_2(options, field, capsys):
    assert main(["selfplay", *options]) == 2
    err = capsys.readouterr().err
    assert "bad rules" in err and f"field={field!r}" in err


def test_an_unknown_bot_exits_2_with_a_clear_message(tmp_path, capsys):
    code = main(["selfplay", "--bots", "random,grandmaster", "--hands", "1",
                 "--history", str(tmp_path / "h.jsonl")])
    err = capsys.readouterr().err
    assert code == 2
    assert "unknown bot 'grandmaster'" in err and "random" in err
    assert not (tmp_path / "h.jsonl").exists()


def test_the_bot_list_is_cycled_over_the_seats(tmp_path, monkeypatch, capsys):
    class PassiveBot(RandomBot):
        """Random, but a different kind: only its name matters here."""

    monkeypatch.setitem(BOT_KINDS, "passive", PassiveBot)
    code, path = selfplay(tmp_path, "h.jsonl", "--players", "5", "--hands", "1",
                          "--bots", "random,passive")
    assert code == 0
    header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert [p["name"] for p in header["players"]] == [
        "Random 1", "Passive 2", "Random 3", "Passive 4", "Random 5"]
    out = capsys.readouterr().out
    assert out.count("passive") == 2 and out.count(" random ") == 3


def test_replay_of_an_altered_history_exits_1_with_the_line(tmp_path, capsys):
    _, path = selfplay(tmp_path, "h.jsonl", "--players", "4", "--hands", "2", "--seed", "3")
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[10] = lines[10][:-5]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}: Line 11: the line is not valid JSON." in err


def test_replay_of_a_missing_file_exits_1(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nothing.jsonl")]) == 1
    assert "Cannot read the file" in capsys.readouterr().err


@pytest.mark.slow  # the hard bot searches: seconds a move
def test_mixed_bots_write_a_history_that_replays(tmp_path, capsys):
    kinds = sorted(BOT_KINDS)  # random and heuristic, and any later kind
    code, path = selfplay(tmp_path, "h.jsonl", "--players", "6", "--hands", "5", "--seed", "4",
                          "--bots", ",".join(kinds))
    assert code == 0
    out = capsys.readouterr().out
    assert all(kind in out for kind in kinds)
    state, summaries = replay_history(read_history_file(path))
    assert len(summaries) == 5 and state.winners


def test_selfplay_takes_bot_levels_and_a_thinking_budget(tmp_path, capsys):
    code, path = selfplay(tmp_path, "levels.jsonl", "--players", "4", "--hands", "1",
                          "--seed", "3", "--bots", "easy,medium,hard", "--bot-budget", "5")
    assert code == 0
    out = capsys.readouterr().out
    assert all(kind in out for kind in ("easy", "medium", "hard"))
    state, summaries = replay_history(read_history_file(path))
    assert len(summaries) == 1


def test_big_two_identical_twin_single_is_left_to_equal_rank_in_replay(tmp_path, capsys):
    """Issue 18's reproduction: with two decks and ``suit_tiebreak = "big_two"`` the
    identical twin of the top single ties, and ``equal_rank = "allowed"`` lets it on."""
    from president.actions import Play
    from president.engine import apply
    from president.history import event_line

    rules = tmp_path / "r.toml"
    rules.write_text('preset = "classic"\ndecks = 2\nsuit_tiebreak = "big_two"\n'
                     'equal_rank = "allowed"\n', encoding="utf-8")
    code, path = selfplay(tmp_path, "h.jsonl", "--players", "4", "--rules", str(rules),
                          "--hands", "1", "--seed", "1")
    assert code == 0
    lines = path.read_text(encoding="utf-8").splitlines()[:2]  # the session and the deal
    state, _ = replay_history(lines, complete=False)
    leader = state.turn
    assert leader is not None
    for card in sorted(set(state.hands[leader])):
        after, events = apply(state, Play(leader, (card,)))
        if after.turn is not None and card in after.hands[after.turn]:
            twin_seat = after.turn
            break
    else:
        pytest.fail("no single in the leader's hand whose twin the next seat holds")
    lines += [line for event in events if (line := event_line(event)) is not None]
    lines.append(json.dumps({"type": "play", "cards": str(card), "hand": 1, "seat": twin_seat},
                            separators=(",", ":")))
    cut = tmp_path / "r.jsonl"
    cut.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(cut)]) == 1  # it stops there, but the twin was accepted
    err = capsys.readouterr().err
    assert f"Line {len(lines) + 1}: the history stops before the session is over." in err


def test_session_end_zero_a_bga_selfplay_session_ends_at_zero(tmp_path, capsys):
    code, path = selfplay(tmp_path, "bga.jsonl", "--players", "5", "--preset", "bga",
                          "--seed", "3")
    assert code == 0
    assert "session_end = zero" in capsys.readouterr().out
    state, summaries = replay_history(read_history_file(path))
    assert state.rules == PRESETS["bga"]
    assert min(summaries[-1].scores) <= 0  # someone reached zero: the session is over
    assert all(min(summary.scores) > 0 for summary in summaries[:-1])


def test_session_end_target_a_selfplay_session_ends_at_the_target(tmp_path):
    code, path = selfplay(tmp_path, "polish.jsonl", "--players", "5", "--preset", "polish",
                          "--seed", "3")
    assert code == 0
    state, summaries = replay_history(read_history_file(path))
    target = PRESETS["polish"].session_length
    assert max(summaries[-1].scores) >= target
    assert "early" not in read_history_file(path)[-1]  # the rules ended it
    assert all(max(summary.scores) < target for summary in summaries[:-1])


def test_hands_overrides_a_score_end_and_says_so(tmp_path, capsys):
    code, path = selfplay(tmp_path, "bga.jsonl", "--players", "5", "--preset", "bga",
                          "--hands", "2", "--seed", "3")
    assert code == 0
    assert "session_end = zero, overridden by --hands 2" in capsys.readouterr().out
    state, summaries = replay_history(read_history_file(path))
    assert len(summaries) == 2 and min(state.scores) > 0  # stopped before anyone hit zero
    assert state.rules == PRESETS["bga"]
    lines = read_history_file(path)
    assert '"early":true' in lines[-1]  # the session_end says it was cut (issue 31)


@pytest.mark.parametrize("session_end", ["open", "minutes"])
def test_session_end_open_or_minutes_selfplay_ends_it_as_a_host_would(
    tmp_path, capsys, session_end
):
    rules = tmp_path / "r.toml"
    rules.write_text(f'preset = "classic"\nsession_end = "{session_end}"\n', encoding="utf-8")
    code, path = selfplay(tmp_path, "h.jsonl", "--rules", str(rules), "--hands", "3")
    assert code == 0
    assert "selfplay ends the session after 3 hands" in capsys.readouterr().out
    state, summaries = replay_history(read_history_file(path))
    assert len(summaries) == 3 and state.rules.session_end == session_end
    assert "early" not in read_history_file(path)[-1]  # the host's end, not a cut


@pytest.mark.parametrize(
    "bots", ["random", "easy", "medium", pytest.param("hard", marks=pytest.mark.slow)])
def test_decree_the_president_of_each_hand_decrees_in_selfplay(tmp_path, bots):
    rules = tmp_path / "r.toml"
    rules.write_text('preset = "classic"\ndecree = true\n', encoding="utf-8")
    code, path = selfplay(tmp_path, "h.jsonl", "--rules", str(rules), "--hands", "3",
                          "--seed", "2", "--bots", bots, "--bot-budget", "5")
    assert code == 0
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    decrees = [line for line in lines if line["type"] == "decree"]
    presidents = [line["roles"].index("president") for line in lines
                  if line["type"] == "hand_end"]
    assert [d["seat"] for d in decrees] == presidents[:-1]  # none after the last hand
    assert all(d["text"] for d in decrees)
    replay_history(read_history_file(path))
    _, plain = selfplay(tmp_path, "plain.jsonl", "--hands", "3", "--seed", "2", "--bots", bots,
                        "--bot-budget", "5")
    assert "decree" not in line_types(plain)


def test_selfplay_daihinmin_local_finishes_and_replays(tmp_path, capsys):
    """Issue 11: ``president selfplay --preset daihinmin_local --players 5 --hands 20``."""
    code, history = selfplay(tmp_path, "dl.jsonl", "--preset", "daihinmin_local",
                             "--players", "5", "--hands", "20", "--bots", "heuristic,random")
    assert code == 0
    kinds = line_types(history)
    assert kinds.count("hand_end") == 20 and kinds[-1] == "session_end"
    assert {"lock", "cut"} <= set(kinds)
    replay_history(read_history_file(history))
