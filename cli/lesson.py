"""Learn to play (issue 28): a short guided hand against two bots, with fixed cards.

``Lesson`` is the lesson's course without I/O: each step of ``STEPS`` says what to do
and why, and waits for that move (another one is refused as ``lesson_step``): leading,
following, passing, a clear, going out, the roles and the tax. Then the hand is the
player's to play out. The terminal plays it through ``LessonConnection``, which stands
where the table screen expects a connection to a table and feeds it the same client
events (the seat, views, events); the page through the host (``cli.web.lesson``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from president import to_act
from president.actions import Action, GiveBack, Pass, Play, Ready
from president.bots.medium import MediumBot
from president.cards import parse_cards
from president.cli.i18n import N_
from president.engine import apply, new_session
from president.errors import IllegalAction
from president.events import Event, project_event
from president.net.protocol import PROTOCOL_VERSION, Reply, TableInfo
from president.net.session import GameEvent, Joined, ViewChanged
from president.rules import SessionEnd, preset
from president.state import Phase, State
from president.view import view

NAMES = ("Ann", "Bob")  # the bots; the player is seat 0
HANDS = ("4C 4D 9S KH 2S", "5C 5H 7D JC QD", "3C 6S 6H 8C 10D")
SEED = 28
BOT_DELAY = 0.7  # seconds between the bots' moves, so the player can follow them
# The bots' moves while the lesson guides the player: (seat, cards), None cards a pass.
BOT_MOVES = ((1, "5C 5H"), (2, "6S 6H"), (1, None), (2, "3C"), (1, "JC"), (2, None),
             (1, None), (2, None))


@dataclass(frozen=True)
class Step:
    """What the player is to do (``wanted``: the move, or any move of a kind) and the
    line that says so, with the terminal's keys (``text``) or the page's taps (``page``);
    its fields from ``Lesson.fields``."""

    wanted: Action | type[Action]
    text: str
    page: str


STEPS = (
    Step(Play(0, parse_cards("4C 4D")), N_(
        "Lesson 1/7 · Leading: the pile is empty, so you lead with any single card or set "
        "of one rank. Play your pair of 4s: press 4, then Enter."), N_(
        "Lesson 1/7 · Leading: the pile is empty, so you lead with any single card or set "
        "of one rank. Play your pair of 4s: tap both 4s, then Play.")),
    Step(Pass(0), N_(
        "Lesson 2/7 · Following: a play must beat the pile with as many cards of a higher "
        "rank. {bob}'s pair of 6s is on top and you hold no higher pair: press p to pass."),
        N_("Lesson 2/7 · Following: a play must beat the pile with as many cards of a "
           "higher rank. {bob}'s pair of 6s is on top and you hold no higher pair: tap Pass.")),
    Step(Play(0, parse_cards("9S")), N_(
        "Lesson 3/7 · A clear: everyone else passed, so the pile was cleared and {bob}, who "
        "played last, led a 3. Beat it with a higher single: press 9, then Enter."), N_(
        "Lesson 3/7 · A clear: everyone else passed, so the pile was cleared and {bob}, who "
        "played last, led a 3. Beat it with a higher single: tap your 9, then Play.")),
    Step(Play(0, parse_cards("KH")), N_(
        "Lesson 4/7 · {ann} beat your 9 with a jack. Beat the jack with your king: press "
        "{king}, then Enter. If nobody beats it, the pile is cleared and you lead."), N_(
        "Lesson 4/7 · {ann} beat your 9 with a jack. Beat the jack with your king: tap it, "
        "then Play. If nobody beats it, the pile is cleared and you lead.")),
    Step(Play(0, parse_cards("2S")), N_(
        "Lesson 5/7 · Going out: nobody beat your king, so you lead again. The 2 is the "
        "highest card: play your last card (press 2, then Enter) and you are out first."), N_(
        "Lesson 5/7 · Going out: nobody beat your king, so you lead again. The 2 is the "
        "highest card: play your last card (tap it, then Play) and you are out first.")),
    Step(Ready, N_(
        "Lesson 6/7 · Roles: the first out takes the best title for the next hand, the last "
        "out the worst. You: {president} · {bob}: {scum}. Press Enter when you are ready."),
        N_("Lesson 6/7 · Roles: the first out takes the best title for the next hand, the "
           "last out the worst. You: {president} · {bob}: {scum}. Tap Ready when you are "
           "ready.")),
    Step(GiveBack, N_(
        "Lesson 7/7 · The tax: the last out ({bob}) gave you, the first out, their best "
        "cards (marked +); you give back as many of your choice. Press l for your lowest, "
        "then Enter."), N_(
        "Lesson 7/7 · The tax: the last out ({bob}) gave you, the first out, their best "
        "cards (marked +); you give back as many of your choice. Tap your lowest, then "
        "Give back.")),
)
DONE = N_("Lesson over: you have led, followed, passed, seen a clear, gone out first and "
          "taken the tax. Play this hand out against the bots, or Ctrl-Q to leave.")
DONE_PAGE = N_("Lesson over: you have led, followed, passed, seen a clear, gone out first "
               "and taken the tax. Play this hand out against the bots, or leave the table "
               "from Rules.")
NOT_THIS_STEP = "lesson_step"  # the refusal of a move the lesson does not ask for


def lesson_start() -> State:
    """The hand the lesson deals: fixed cards, the player leads; two hands in all."""
    rules = replace(preset("classic"), session_end=SessionEnd.HANDS, session_length=2)
    state, _ = new_session(rules, ("?", *NAMES), SEED)
    return replace(state, phase=Phase.PLAY, hands=tuple(parse_cards(h) for h in HANDS),
                   turn=0, tax_due=(), tax_log=())


class Lesson:
    """The lesson's course, without I/O: the engine's state, the step reached and the
    bots' script. The player's moves go through ``refusal`` then ``play``; the bots move
    one at a time (``bot_move``) while ``bot_to_act`` names one. Each move gives the
    events it made. The terminal (``LessonConnection``) and the page (``cli.web.lesson``)
    both move it; the same moves always give the same lesson."""

    def __init__(self, name: str) -> None:
        self.state = replace(lesson_start(), players=(name, *NAMES))
        self.step = 0
        self.bot_moves = list(BOT_MOVES)

    @property
    def over(self) -> bool:
        """Whether every step is done (the rest of the session is the player's)."""
        return self.step >= len(STEPS)

    def line(self, tr: Any, text: Any, page: bool = False) -> str:
        """The current step's words (after the last: the lesson is over), with the
        terminal's keys or the page's taps."""
        if self.over:
            return str(tr.gettext(DONE_PAGE if page else DONE))
        step = STEPS[self.step]
        return str(tr.gettext(step.page if page else step.text)).format(**self.fields(text))

    def fields(self, text: Any) -> dict[str, str]:
        title_set = self.state.rules.title_set
        return {"ann": NAMES[0], "bob": NAMES[1], "king": text.rank("K"),
                "president": text.role_title("president", title_set),
                "scum": text.role_title("scum", title_set)}

    def info(self, name: str) -> TableInfo:
        """The table as its player is shown it (``name``: the lesson's, in their words)."""
        return TableInfo(id="lesson", name=name, preset="classic", rules=self.state.rules,
                         seats=3, players=self.state.players, bots=(False, True, True),
                         connected=(True, False, False), started=True, over=False,
                         pin=False, spectators=0, proto=PROTOCOL_VERSION, turn_timer=0,
                         hints=False)

    def expects(self, action: Action) -> bool:
        """Whether ``action`` is the move the current step asks for (any move after it)."""
        if self.over:
            return True
        wanted = STEPS[self.step].wanted
        return isinstance(action, wanted) if isinstance(wanted, type) else action == wanted

    def refusal(self, action: Action | None) -> str | None:
        """Why the player's ``action`` is refused (the engine's reason, or the lesson's
        ``lesson_step``), None: it may be played."""
        if action is None or action.seat != 0:
            return "refused"
        try:
            apply(self.state, action)
        except IllegalAction as error:
            return error.code
        return None if self.expects(action) else NOT_THIS_STEP

    def play(self, action: Action) -> list[Event]:
        """The player's move (``refusal`` said None): the next step comes."""
        if not self.over:
            self.step += 1
        return self._apply(action)

    def bot_to_act(self) -> int | None:
        """The bot the session waits for (None: it waits for the player, or is over)."""
        seat = to_act(self.state)
        return None if seat is None or seat == 0 else seat

    def bot_move(self) -> list[Event]:
        """The move of ``bot_to_act``'s bot: the script's while it lasts, then the medium
        bot's."""
        seat = self.bot_to_act()
        assert seat is not None
        if self.state.phase is Phase.PLAY and self.bot_moves and self.bot_moves[0][0] == seat:
            _, cards = self.bot_moves.pop(0)
            action: Action = Pass(seat) if cards is None else Play(seat, parse_cards(cards))
        else:
            action = MediumBot(seat).choose(view(self.state, seat))
        return self._apply(action)

    def _apply(self, action: Action) -> list[Event]:
        self.state, events = apply(self.state, action)
        return events


class LessonConnection:
    """A table of one player and two bots, in this process (see the module docstring)."""

    owner = False
    web_url = None
    unadvertised = True

    def __init__(self, name: str, tr: Any, text: Any, bot_delay: float = BOT_DELAY) -> None:
        self.name, self.tr, self.text = name, tr, text
        self.bot_delay = bot_delay
        self.address: str | None = None
        self.lesson = Lesson(name)
        self.on_event: Callable[[Any], None] | None = None
        self.task: asyncio.Task[None] | None = None

    @property
    def state(self) -> State:
        return self.lesson.state

    @property
    def step(self) -> int:
        return self.lesson.step

    def lesson_line(self) -> str:
        """The current step's words, with the terminal's keys."""
        return self.lesson.line(self.tr, self.text)

    # ------------------------------------------------------------ a connection's part

    async def start(self, on_event: Callable[[Any], None]) -> None:
        self.on_event = on_event
        on_event(Joined(0, self.table_info()))
        on_event(ViewChanged(view(self.state, 0)))

    def table_info(self) -> TableInfo:
        return self.lesson.info(self.tr.gettext("Learn to play"))

    async def act(self, action: Action | None) -> Reply:
        refused = self.lesson.refusal(action)
        if refused is not None or action is None:
            return Reply(refused or "refused")
        self._emit(self.lesson.play(action))
        self.task = asyncio.ensure_future(self._bots())
        return Reply()

    async def _bots(self) -> None:
        """The bots move until the session waits for the player (or is over)."""
        while self.lesson.bot_to_act() is not None:
            if self.state.phase is Phase.PLAY and self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            self._emit(self.lesson.bot_move())

    def _emit(self, events: list[Event]) -> None:
        if self.on_event is None:
            return
        for event in events:
            self.on_event(GameEvent(project_event(event, 0)))
        self.on_event(ViewChanged(view(self.state, 0)))

    async def chat(self, text: str) -> None:
        return None

    async def step_away(self) -> None:
        await self.close()

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
