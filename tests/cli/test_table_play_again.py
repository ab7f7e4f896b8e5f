"""Play again in the full-screen client: at the end of a session the owner presses g
and the same players start a new one at the same table; the others are told they wait
for the owner (or may leave)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

from cli_fakes import FakeBridge
from screens import make_ui, moments, render, seat_at

from president.cli import hosting
from president.cli.commands.host import options_from_args
from president.cli.main import build_parser
from president.rules import PRESETS


def test_the_owner_presses_g_and_a_new_session_starts_at_the_same_table(run_ui) -> None:
    bridge = FakeBridge(seed=11, rules=replace(PRESETS["classic"], session_length=1))
    seen: dict[str, object] = {}

    async def scenario(d) -> None:
        ui = d.ui
        await d.until(lambda: ui.table is not None and ui.table.view is not None, "a view")
        table, tr = ui.table, ui.tr
        await d.play_the_hand_out()                     # the session's one hand
        await d.until(lambda: table.may_play_again, "the table to wait for us")
        seen["over"] = await d.screen_shows(tr.gettext("g play again"))
        seats = list(table.view.players)
        d.keys("o")                                     # other rules for the next session
        await d.until(lambda: ui.screen == "setup", "the rules screen")
        d.keys("\x1b[B\x1b[C")                          # title set: classic -> another
        await d.until(lambda: ui.setup.rules.title_set != "classic", "the title set")
        d.keys("\x1b[A\r")                              # Apply the rules
        await d.until(lambda: ui.screen == "table" and table.table.rules.title_set
                      != "classic", "the new rules at the table")
        d.keys("g")
        await d.until(lambda: table.phase not in (None, "session_over"), "a new session")
        seen["again"] = await d.rendered()
        seen["view"], seen["seats"] = table.view, seats
        seen["summaries"] = (table.session_summary, table.score_sheet)

    run_ui(scenario, bridge=bridge, language="nl",
           start=lambda ui: ui.play_bots(3, "classic", None))
    over = str(seen["over"])
    assert "Druk op g om opnieuw te spelen met dezelfde spelers" in over
    assert over.splitlines()[-1].startswith("g opnieuw spelen · ")     # the key, in Dutch
    view = seen["view"]
    assert view.hand_number == 1 and set(view.scores) == {0}
    assert list(view.players) == seen["seats"]                       # the same seats
    assert seen["summaries"] == (None, [])
    again = str(seen["again"])
    assert "De sessie is voorbij. Stand:" not in again                # the standings went
    assert "Een nieuwe sessie aan deze tafel: de punten beginnen opnieuw." in again
    assert len(bridge.tables) == 1 and bridge.tables[0].sessions == 2  # the same table
    assert bridge.tables[0].state.rules.title_set != "classic"        # with its new rules


def test_a_table_opened_from_the_lobby_is_told_to_wait_for_its_owner(tmp_path) -> None:
    """The lobby's background ``president host`` gets --play-again (cli.hosting), which
    becomes the table's wait."""
    setup = SimpleNamespace(name="Garden", preset="classic", players=3, bots=1,
                            level="easy", levels=(), turn_timer=0)
    (tmp_path / "t1.toml").write_text(hosting.rules_toml("classic", PRESETS["classic"]))
    argv = hosting.host_argv(setup, tmp_path, "t1", ["127.0.0.1"])
    args = build_parser().parse_args(argv[argv.index("host"):])
    assert options_from_args(args).again_wait == hosting.AGAIN_WAIT > 0
    plain = build_parser().parse_args(["host", "--players", "3"])
    assert options_from_args(plain).again_wait == 0          # a headless table: it closes


def test_the_others_wait_for_the_owner_and_only_the_owner_is_offered_g() -> None:
    ui = make_ui("pl", 80, 24)
    model = seat_at(ui, moments(5)["session_over"])
    assert model.table is not None
    model.table = replace(model.table, again=True)
    text = render(ui).text
    assert "Właściciel stołu wybiera zasady następnej sesji; Ctrl-Q – powrót do poczekalni." \
        in text
    assert "g – zagraj ponownie" not in text
    model.owner = True
    rendered = render(ui)
    assert rendered.rows[-1].startswith("g – zagraj ponownie · ")
    assert "Naciśnij g, aby zagrać ponownie" in rendered.text
    model.table = replace(model.table, again=False)           # the table closed: no g
    assert "g – zagraj ponownie" not in render(ui).text


def test_the_owner_plays_the_same_deals_again_and_reads_the_comparison(run_ui) -> None:
    """e at the end of the session: the same deals with everyone one seat on; at its
    end the summary compares, seat by seat, who held the same cards."""
    bridge = FakeBridge(seed=11, rules=replace(PRESETS["classic"], session_length=1))
    seen: dict[str, object] = {}

    async def scenario(d) -> None:
        ui = d.ui
        await d.until(lambda: ui.table is not None and ui.table.view is not None, "a view")
        table = ui.table
        await d.play_the_hand_out()
        await d.until(lambda: table.may_play_again, "the table to wait for us")
        await d.screen_shows("Press e to play the same deals again")
        first = list(table.view.players)
        d.keys("e")
        await d.until(lambda: table.phase not in (None, "session_over"), "the duplicate")
        seen["seats"] = (first, list(table.view.players))
        await d.play_the_hand_out()
        await d.until(lambda: table.duplicate is not None, "the comparison")
        seen["screen"] = await d.screen_shows("The same deals, seat by seat (before, now):")

    run_ui(scenario, bridge=bridge, start=lambda ui: ui.play_bots(3, "classic", None))
    first, second = seen["seats"]
    assert second == [first[-1], *first[:-1]]                 # everyone one seat on
    assert "1. " + first[0] in str(seen["screen"])
