"""The lobby, settings and host set-up screens, driven by keys."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from cli_fakes import FakeBridge, FakeInfo

from president.cli import settings as store
from president.cli.terminal.lobby import MENU
from president.cli.trust import KnownHosts, load_host_key

UP, DOWN, LEFT, RIGHT = "\x1b[A", "\x1b[B", "\x1b[D", "\x1b[C"


def kitchen(taken: int = 2, pin: bool = True) -> FakeInfo:
    return FakeInfo("Kitchen (abc123)._president._tcp.local.", "Kitchen", ["127.0.0.1"],
                    4242, taken, 5, "bga", pin_required=pin)


def test_tables_appear_and_disappear_live(run_ui) -> None:
    bridge = FakeBridge()

    async def scenario(d) -> None:
        await d.until(lambda: bridge.browsers and bridge.browsers[0].started, "browsing")
        browser = bridge.browsers[0]
        await d.screen_shows("Looking for tables")
        browser.set({"k": kitchen()})
        screen = await d.screen_shows("Kitchen")
        line = next(row for row in screen.splitlines() if "Kitchen" in row)
        assert "2/5 seats" in line and "Board Game Arena" in line and "🔒" in line
        browser.set({"k": kitchen(taken=3)})
        await d.screen_shows("3/5 seats")
        browser.set({})
        await d.until(lambda: "Kitchen" not in d.safe_screen(), "the table to go")
        assert "Host a table" in d.safe_screen()

    run_ui(scenario, bridge=bridge)


def test_join_a_found_table_with_its_pin(run_ui) -> None:
    bridge = FakeBridge()

    async def scenario(d) -> None:
        await d.until(lambda: bridge.browsers, "browsing")
        bridge.browsers[0].set({"k": kitchen()})
        await d.screen_shows("Kitchen")
        d.keys("\r")  # the first table found is selected until the player moves
        await d.screen_shows("PIN:")
        d.keys("4321\r")
        await d.until(lambda: d.ui.screen == "table" and d.ui.table.view, "the table")
        assert bridge.joined == [("127.0.0.1:4242", "4321")]

    run_ui(scenario, bridge=bridge)


def test_join_by_address(run_ui) -> None:
    bridge = FakeBridge()

    async def scenario(d) -> None:
        await d.screen_shows("Join by address")
        d.keys(DOWN * MENU.index("join") + "\r")
        await d.screen_shows("Address (host:port):")
        d.keys("nonsense\r")
        await d.screen_shows("Not an address: nonsense")
        assert bridge.joined == []
        d.keys("\r")
        d.keys("127.0.0.1:4000\r")
        await d.screen_shows("PIN (empty: none):")
        d.keys("\r")
        await d.until(lambda: d.ui.screen == "table", "the table")
        assert bridge.joined == [("127.0.0.1:4000", None)]
        await d.screen_shows("Tester (you)")

    run_ui(scenario, bridge=bridge)


def test_settings_are_edited_and_remembered(run_ui, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(store.ENV_DIR, str(tmp_path))
    bridge = FakeBridge()

    async def scenario(d) -> None:
        d.ui.save_settings = store.save
        await d.screen_shows("Settings")
        d.keys(DOWN * MENU.index("settings") + "\r")
        await d.screen_shows("Your name")
        d.keys("\r")
        await d.screen_shows("Your name:")
        d.keys("\x7f" * 10 + "Zoë\r")
        await d.until(lambda: d.ui.settings.name == "Zoë", "the new name")
        d.keys(DOWN + RIGHT)
        await d.until(lambda: d.ui.language == "it", "Italian")
        d.keys("\x1b")
        await d.until(lambda: d.ui.screen == "lobby", "back to the lobby")

    run_ui(scenario, bridge=bridge)
    saved = store.load(tmp_path / "settings.toml")
    assert saved.name == "Zoë" and saved.language == "it"


def test_settings_file_round_trip_and_bad_files(tmp_path: Path) -> None:
    path = store.config_path({store.ENV_DIR: str(tmp_path)})
    assert path == tmp_path / "settings.toml"
    assert store.load(path) == store.Settings()
    store.save(store.Settings('Ann "the" \\ best', "pl"), path)
    assert store.load(path) == store.Settings('Ann "the" \\ best', "pl")
    path.write_text("name = [", encoding="utf-8")
    assert store.load(path) == store.Settings()
    path.write_text('name = 3\nlanguage = "xx"', encoding="utf-8")
    assert store.load(path) == store.Settings()
    xdg = store.config_path({"XDG_CONFIG_HOME": "/x"})
    assert xdg == Path("/x/president/settings.toml")


def test_host_set_up_opens_a_waiting_table_with_one_key(run_ui) -> None:
    """The set-up screen opens on "Open the table": the preset's least seats, no bots,
    the house rules folded away; Enter opens a table that waits for guests."""
    bridge = FakeBridge()

    async def scenario(d) -> None:
        ui = d.ui
        await d.open_set_up()
        screen = await d.screen_shows("More settings")
        assert ui.setup.row == "start" and "Turn timer" not in screen
        assert "Press Enter to open the table" in screen
        d.keys("\r\r")                 # asked once before the table is shown to everyone
        await d.screen_shows("show it to everyone on this network? y yes")
        assert not bridge.hosted
        d.keys("y")
        await d.until(lambda: ui.screen == "table" and ui.table.table is not None, "the table")
        await d.screen_shows("1 of 3 seats taken")

    run_ui(scenario, bridge=bridge)
    (setup,) = bridge.hosted
    assert (setup.preset, setup.players, setup.bots) == ("classic", 3, 0)


def test_host_set_up(run_ui) -> None:
    bridge = FakeBridge()

    async def scenario(d) -> None:
        ui = d.ui
        await d.open_set_up()
        setup = ui.setup
        await d.screen_shows("Tester's table")
        d.keys(UP * 4 + RIGHT * 4)                # preset: classic -> ... -> bga
        await d.until(lambda: setup.preset == "bga", "the bga preset")
        screen = await d.screen_shows("◀ Board Game Arena ▶")
        assert "A named set of house rules" in screen and setup.players == 4
        d.keys(DOWN * 2 + RIGHT * 3)              # bots: 0 -> 3
        await d.until(lambda: setup.bots == 3, "three bots")
        d.keys(DOWN * 2)                          # the second bot's level
        await d.until(lambda: setup.row == "bot:2", "the second bot's row")
        await d.screen_shows("Bot 2")
        d.keys(RIGHT)                             # medium -> hard
        await d.until(lambda: setup.levels[1] == "hard", "a hard bot")
        d.keys(DOWN * 2)                          # the PIN row
        await d.until(lambda: setup.row == "pin", "the PIN row")
        d.keys("\r")
        await d.screen_shows("PIN (empty: none):")
        d.keys("1234\r")
        await d.until(lambda: setup.pin == "1234", "the PIN")
        d.keys(DOWN * 2 + "\r")                   # open "More settings"
        await d.screen_shows("Turn timer")
        d.keys(DOWN + RIGHT)                      # turn timer: none -> 15 s
        await d.until(lambda: setup.turn_timer == 15, "the turn timer")
        d.keys(DOWN * 4 + RIGHT * 2)       # (hints, late, level) title set: bga -> classic
        await d.until(lambda: setup.rules.title_set == "classic", "the title set")
        d.keys(DOWN * 3)                          # a rule with its explanation
        await d.until(lambda: setup.row not in ("pin", "title_set"), "a rule row")
        rule = setup.row
        before = getattr(setup.rules, rule)
        d.keys(RIGHT)
        await d.until(lambda: getattr(setup.rules, rule) != before, "the rule to change")
        d.keys(UP * (setup.index - setup.rows.index("start")))
        await d.until(lambda: setup.row == "start", "the start row")
        d.keys("\ry")
        await d.until(lambda: ui.screen == "table" and ui.table.view, "the table")

    ui = run_ui(scenario, bridge=bridge)
    (setup,) = bridge.hosted
    assert setup.preset == "bga" and setup.pin == "1234"
    assert setup.rules.title_set == "classic" and setup.rules.joker_mode == "trump"
    assert setup.players == 4 and setup.bots == 3 and setup.turn_timer == 15
    assert setup.levels == ("medium", "hard", "medium") and setup.level == "medium"
    assert ui.table.table.preset == "bga"


def test_the_owner_changes_the_rules_in_the_waiting_room(run_ui) -> None:
    bridge = FakeBridge()

    async def scenario(d) -> None:
        ui = d.ui
        await d.open_set_up()
        d.keys("\ry")                                           # Open the table (3 seats)
        await d.screen_shows("Rules: Classic")
        await d.screen_shows("Press o to change the rules.")
        d.keys("o")
        await d.screen_shows("Change the rules")
        assert ui.setup.row == "start" and "Seats" not in await d.rendered()
        d.keys(DOWN + RIGHT)                                  # title set: classic -> another
        await d.until(lambda: ui.setup.rules.title_set != "classic", "the title set")
        d.keys(UP + "\r")                                     # Apply the rules
        await d.until(lambda: ui.screen == "table", "back at the table")
        await d.screen_shows("Rules: Classic, with changes")

    ui = run_ui(scenario, bridge=bridge)
    assert ui.table.table.rules.title_set != "classic"   # as the host now tells everyone


def test_the_lobby_shows_each_tables_address_and_host_key_and_warns_of_lookalikes(
        run_ui) -> None:
    bridge = FakeBridge()
    real, other = "ab" * 32, "cd" * 32
    KnownHosts().remember("Kitchen", real)        # joined there before
    lookalike = replace(kitchen(), instance="Kitchen (x)._president._tcp.local.",
                        addresses=["127.0.0.9"], key=other)

    async def scenario(d) -> None:
        await d.until(lambda: bridge.browsers, "browsing")
        bridge.browsers[0].set({"k": replace(kitchen(), key=real)})
        screen = await d.screen_shows("host key ABAB-ABAB")
        assert "127.0.0.1:4242" in screen and "⚠" not in screen
        bridge.browsers[0].set({"k": replace(kitchen(), key=real), "x": lookalike})
        screen = await d.screen_shows("same name")
        rows = [row for row in screen.splitlines() if row.lstrip("▸ ").startswith("Kitchen")]
        assert len(rows) == 2 and all(row.rstrip().endswith("⚠") for row in rows)
        d.keys(DOWN)  # the lookalike: another key than the one we joined at
        screen = await d.screen_shows("host key CDCD-CDCD")
        assert "127.0.0.9:4242" in screen and "not the one it had when you last joined" in screen
        d.keys("\r")
        await d.screen_shows("PIN:")
        d.keys("1\r")
        await d.until(lambda: bridge.joined, "the join")
        assert bridge.host_keys == [other]  # the join expects the key the table advertised

    run_ui(scenario, bridge=bridge)


def test_the_host_key_and_the_known_keys_are_kept_in_the_data_folder(tmp_path: Path) -> None:
    key = load_host_key(tmp_path)
    assert load_host_key(tmp_path) == key
    assert (tmp_path / "host_key").stat().st_mode & 0o777 == 0o600
    (tmp_path / "host_key").write_text("not hex")
    assert load_host_key(tmp_path) != key  # a damaged key is replaced, not a crash
    known = KnownHosts(tmp_path / "known.json")
    assert known.get("Den") is None and not known.changed("Den", "ab" * 32)
    known.remember("Den", "ab" * 32)
    assert not KnownHosts(tmp_path / "known.json").changed("Den", "ab" * 32)
    assert KnownHosts(tmp_path / "known.json").changed("Den", "cd" * 32)


def test_a_table_found_only_at_an_ipv6_address_is_shown_and_joined_in_brackets(run_ui) -> None:
    bridge = FakeBridge()

    async def scenario(d) -> None:
        await d.until(lambda: bridge.browsers, "browsing")
        bridge.browsers[0].set({"k": replace(kitchen(pin=False), addresses=["fe80::1%2"])})
        await d.screen_shows("[fe80::1%2]:4242")
        d.keys("\r")
        await d.until(lambda: bridge.joined, "the join")
        assert bridge.joined == [("[fe80::1%2]:4242", None)]

    run_ui(scenario, bridge=bridge)


def test_a_full_table_says_before_the_pin_that_it_can_only_be_watched(run_ui) -> None:
    """5/5 seats and no bot's seat to take: the lobby says so beside and under the
    table, Enter asks the PIN to watch and joins as a spectator; w watches any table."""
    bridge = FakeBridge()

    async def scenario(d) -> None:
        await d.until(lambda: bridge.browsers, "browsing")
        bridge.browsers[0].set({"k": kitchen(taken=5),
                                "g": replace(kitchen(taken=5), instance="g", name="Garden",
                                             late_seat=True, pin_required=False)})
        screen = await d.screen_shows("it is yours from the next hand, with its score")
        assert "👁" not in next(row for row in screen.splitlines() if "Garden" in row)
        bridge.browsers[0].set({**bridge.browsers[0].tables,
                                "g": replace(bridge.browsers[0].tables["g"], late_ask=True)})
        await d.screen_shows("its owner may give it to you, with its score")
        assert "w watch" in screen.splitlines()[-1]
        d.keys("w")                                           # Garden: watch it anyway
        await d.until(lambda: bridge.joined, "the first join")
        assert bridge.watching == [True]
        d.ui.leave_table()                                    # back to the lobby
        await d.until(lambda: d.ui.screen == "lobby", "the lobby")
        d.keys(DOWN)                                          # Kitchen: watch only
        screen = await d.screen_shows("Every seat is taken: you can watch this table")
        assert "👁" in next(row for row in screen.splitlines() if "Kitchen" in row)
        d.keys("\r")
        await d.screen_shows("PIN (to watch):")
        d.keys("4321\r")
        await d.until(lambda: len(bridge.joined) == 2, "the second join")
        assert bridge.joined[-1] == ("127.0.0.1:4242", "4321") and bridge.watching == [True, True]

    run_ui(scenario, bridge=bridge)
