"""``briscola play``: a full-screen terminal game against the computer (Textual).

The screen draws the table: the other seats round it (you at the bottom, a partner
opposite), the card each seat played in front of it, the turned trump beside the
stock, whose turn it is marked at the seat. Below: your hand as small card faces to
click, and your other choices (exchange, signals, questions, orders, bids, the call)
as a list; beside it, the log of what your seat saw happen. Keys: 1-9 pick a numbered
choice, ``l`` shows the last trick where the table allows it, ``s`` saves the records,
``q`` or Ctrl-C leaves (asking first during a match).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingsMap, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Header, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from briscola.engine import BriscolaError, Card
from briscola.engine.actions import Action, Bid, Play
from briscola.engine.cards import Suit
from briscola.engine.views import TrickView, View
from briscola.terminal.moves import last_trick_text, menu, read_bid
from briscola.terminal.seat import DEFAULT_SAVE, Source
from briscola.words.cards import STYLE_OF_DECK, corner, hand_order, suit_name
from briscola.words.narrate import describe_action, describe_bid, describe_points
from briscola.words.seating import Seating

MIN_WIDTH = 100
MIN_HEIGHT = 32
"""The smallest terminal the table, the hand of eight cards and the log fit in."""


FRENCH_SYMBOLS = {Suit.COPPE: "♥", Suit.DENARI: "♦", Suit.SPADE: "♠", Suit.BASTONI: "♣"}

SUIT_COLOURS = {
    "italian-40": {Suit.COPPE: "red", Suit.DENARI: "yellow", Suit.SPADE: "cyan",
                   Suit.BASTONI: "green"},
    "spanish-40": {Suit.COPPE: "red", Suit.DENARI: "yellow", Suit.SPADE: "cyan",
                   Suit.BASTONI: "green"},
    "french-32": {Suit.COPPE: "red", Suit.DENARI: "red", Suit.SPADE: "white",
                  Suit.BASTONI: "white"},
}  # fmt: skip
"""The colour a card is drawn in: the suit's colour on the deck's faces."""


def face(card: Card, deck: str, lang: str = "en") -> tuple[str, str]:
    """What a small card face shows: its corner (the rank as the deck prints it, and the
    suit's symbol in the French deck) and the suit's word (``R``, ``coppe``; ``K♥``,
    ``hearts``), in the language cards are named in."""
    rank = corner(card, deck)
    if deck == "french-32":
        rank += FRENCH_SYMBOLS[card.suit]
    return rank, suit_name(card.suit, STYLE_OF_DECK[deck], lang)


def card_face(card: Card, deck: str, dim: bool = False, lang: str = "en") -> Text:
    """A small framed card face, drawn in its suit's colour: the corner and the suit."""
    corner, word = face(card, deck, lang)
    colour = SUIT_COLOURS[deck][card.suit]
    style = f"dim {colour}" if dim else f"bold {colour}"
    middle = word if deck != "french-32" else corner[-1]
    text = Text(justify="left")
    text.append("╭───────╮\n", style)
    text.append(f"│{corner:<7}│\n", style)
    text.append(f"│{middle:^7}│\n", style)
    text.append(f"│{corner:>7}│\n", style)
    text.append("╰───────╯", style)
    return text


def back_face(count: int, voice: Seating) -> Text:
    """A face-down pile: how many cards a seat holds."""
    cards = voice.count("count.cards", count)
    return Text(f"╭───────╮\n│░░░░░░░│\n│{cards:^7}│\n╰───────╯", "dim")


GRID = {
    "top-left": (0, 0),
    "top": (0, 1),
    "top-right": (0, 2),
    "left": (1, 0),
    "right": (1, 2),
    "bottom": (2, 1),
}
"""Where each seat's place is in the 3 x 3 drawing of the table; the middle is the stock."""


def draw_table(view: View, voice: Seating, gathered: TrickView | None) -> RenderableType:
    """The table as the person sees it: every seat in its place with its card on the
    table, the trump and the stock in the middle."""
    deck = voice.deck
    lang = voice.card_lang
    played = dict(view.trick)
    gathered_cards: dict[int, Card] = {}
    if gathered is not None and not view.trick:
        gathered_cards = dict(zip(gathered.seats, gathered.cards, strict=True))
    cells: list[list[RenderableType]] = [[Text("") for _ in range(3)] for _ in range(3)]
    for seat in range(view.players):
        row, col = GRID[voice.slots[seat]]
        named = voice.name(seat)
        name = Text(named[:1].upper() + named[1:])
        if view.to_act == seat:
            name = Text("▶ ", "bold yellow") + name.copy()
            name.stylize("bold yellow")
        parts: list[RenderableType] = [name]
        if seat != voice.seat:
            shown = view.visible_hands.get(seat)
            if shown:
                parts.append(Text(" ".join(voice.short(c) for c in shown), "italic"))
            else:
                parts.append(Text(voice.count("count.cards", view.hand_sizes[seat]), "dim"))
        if seat in played:
            parts.append(card_face(played[seat], deck, lang=lang))
        elif seat in gathered_cards:
            parts.append(card_face(gathered_cards[seat], deck, dim=True, lang=lang))
        else:
            parts.append(Text("\n\n\n\n"))
        if seat == voice.seat:  # your card lies in front of you, towards the middle
            parts.reverse()
        cells[row][col] = Group(*parts)
    cells[1][1] = middle(view, voice, gathered)
    grid = Table.grid(expand=True)
    for _ in range(3):
        grid.add_column(justify="center", ratio=1)
    for cell_row in cells:
        grid.add_row(*cell_row)
    return grid


def middle(view: View, voice: Seating, gathered: TrickView | None) -> RenderableType:
    """The middle of the table: the trump, the turned card beside the stock, the auction."""
    say = voice.words.say
    lang = voice.card_lang
    parts: list[RenderableType] = []
    auction = view.auction
    stock = say("screen.stock", cards=voice.count("count.cards", view.stock_size))
    if auction is not None:
        if auction.called is None:
            parts.append(Text(say("screen.auction"), "bold"))
            if auction.high is None:
                parts.append(Text(say("view.no_bid")))
            else:
                parts.append(Text(say("screen.high", bid=describe_bid(auction.high, voice))))
        elif auction.caller is not None:
            parts.append(Text(say("screen.trump", suit=voice.suit(auction.called.suit)), "bold"))
            parts.append(Text(voice.say("screen.called", auction.caller)))
            parts.append(card_face(auction.called, voice.deck, lang=lang))
    elif view.trump is not None:
        parts.append(Text(say("screen.trump", suit=voice.suit(view.trump)), "bold"))
        if view.turned is not None:
            parts.append(card_face(view.turned, voice.deck, lang=lang))
        parts.append(Text(stock))
    else:
        parts.append(Text(say("screen.no_trump"), "bold"))
        parts.append(Text(stock))
    if view.stock_top is not None:
        parts.append(Text(say("view.stock_top", card=voice.card_code(view.stock_top))))
    if gathered is not None and not view.trick:
        if voice.points_shown:
            points = voice.count("count.points", gathered.points)
            took = voice.say("screen.took", gathered.winner, points=points)
        else:  # counted in the head: the hand's end says them
            took = voice.say("screen.took_no_points", gathered.winner)
        parts.append(Text(took, "italic"))
    return Group(*parts)


KEY_WORDS = {
    "last": "screen.key.last",
    "analyse": "screen.key.analyse",
    "hint": "screen.key.hint",
    "save": "screen.key.save",
    "leave": "screen.key.quit",
    "answer(True)": "word.yes",
    "answer(False)": "word.no",
}
"""The catalogue's word for each action the footer shows, by the action's name."""


def say_keys(bindings: BindingsMap, voice: Seating) -> None:
    """The footer's words for the keys of ``bindings`` (a screen's own), in the reader's
    language (:data:`KEY_WORDS`), in place of the English written in ``BINDINGS``."""
    say = voice.words.say
    for key, bound in bindings.key_to_bindings.items():
        bindings.key_to_bindings[key] = [
            replace(b, description=say(KEY_WORDS[b.action]))
            if b.description and b.action in KEY_WORDS
            else b
            for b in bound
        ]


class CardButton(Button):
    """One card of the hand to play, drawn as its face."""

    def __init__(self, number: int, action: Play, voice: Seating, drawn: bool) -> None:
        label = card_face(action.card, voice.deck, lang=voice.card_lang)
        new = voice.words.say("screen.new") if drawn else ""
        label.append(f"\n {number}) {voice.short(action.card)}{new}")
        super().__init__(label, classes="card")
        self.move = action


class LeaveScreen(ModalScreen[bool]):
    """Asks before leaving a match that is not over."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "yes"),
        Binding("n,escape", "answer(False)", "no"),
    ]
    CSS = """
    LeaveScreen { align: center middle; }
    #ask { width: 60; height: auto; padding: 1 2; border: thick $warning; background: $panel; }
    """

    def __init__(self, saving: str | None, voice: Seating) -> None:
        super().__init__()
        say_keys(self._bindings, voice)
        self.saving = saving
        self.voice = voice

    def compose(self) -> ComposeResult:
        say = self.voice.words.say
        text = say("screen.leave")
        if self.saving:
            text += say("screen.leave_saving", path=self.saving)
        yield Static(f"{text}\n\n{say('screen.leave_keys')}", id="ask")

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)


class PlayApp(App[int]):
    """One person at a table (against bots, or online), to the end of the match."""

    TITLE = "briscola"
    CSS = """
    #main { height: 1fr; }
    #left { width: 1fr; }
    #table { height: auto; padding: 0 1; }
    #status { height: auto; padding: 0 1; background: $boost; }
    #hand { height: auto; padding: 0 1; }
    #hand .card { width: 11; min-width: 11; height: 7; margin: 0 1 0 0; padding: 0;
                  border: none; background: $surface; }
    #hand .card:focus { background: $accent 30%; }
    #choices { height: auto; max-height: 10; }
    #points { display: none; }
    #points.shown { display: block; }
    #log { width: 44; border: round $primary; }
    #small { display: none; padding: 2 4; }
    .too-small #small { display: block; }
    .too-small #main { display: none; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"choose({n})", show=False) for n in range(1, 10)),
        Binding("l", "last", "last trick"),
        Binding("a", "analyse", "what each card cost"),
        Binding("h", "hint", "hint"),
        Binding("s", "save", "save records"),
        Binding("q", "leave", "quit"),
        Binding("ctrl+c", "leave", "quit", show=False, priority=True),
    ]

    def __init__(self, session: Source, save_to: str | None = None, pace: float = 0.4) -> None:
        super().__init__()
        say_keys(self._bindings, session.seating)
        self.session = session
        session.tell_plays = False  # the table shows the cards; the log keeps who took what
        self.save_to = save_to
        self.pace = pace
        """Seconds between the bots' moves, so a person can follow them (0 in tests, and
        online, where the server paces them)."""
        self.busy = False
        self.thinking = False
        """A computer player is choosing, in a thread: the session is not to be read."""
        self.gathered: TrickView | None = None
        """The trick just taken, left on the table for a moment."""
        self.choices: list[tuple[int, Action]] = []

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static(id="table")
                yield Static(id="status")
                yield Horizontal(id="hand")
                yield OptionList(id="choices")  # each choice wraps: none is cut off
                yield Input(
                    placeholder=self.session.seating.words.say("screen.points"),
                    type="integer",
                    id="points",
                )
            yield RichLog(id="log", wrap=True, min_width=20)
        yield Static(id="small")
        yield Footer(show_command_palette=False)  # (its commands are Textual's, in English)

    async def on_mount(self) -> None:
        s = self.session
        words = s.seating.words
        self.sub_title = words.say(
            "session.introduction", game=s.seating.game(), seats=s.seating.introduction()
        )
        self.write(*s.opening())
        self.check_size(self.size.width, self.size.height)
        self.call_later(self.step)  # not awaited: the screen is up while a bot thinks
        self.set_interval(0.5, self.poll)

    def on_resize(self, event: Resize) -> None:
        self.check_size(event.size.width, event.size.height)

    def check_size(self, width: int, height: int) -> None:
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        self.set_class(small, "too-small")
        self.query_one("#small", Static).update(
            self.session.seating.words.say(
                "screen.too_small", width=width, height=height, min_width=MIN_WIDTH,
                min_height=MIN_HEIGHT,
            )
        )  # fmt: skip

    # ------------------------------------------------------------------ the game loop

    async def step(self) -> None:
        """Let one bot act, or wait for the table's next step (then come back after
        ``pace``), or show the person's choices."""
        s = self.session
        tricks = len(s.view().tricks)
        if not s.over and not s.my_turn():
            self.busy = self.thinking = True
            try:  # the bot thinks in a thread: the screen stays alive meanwhile
                lines = await asyncio.to_thread(s.advance)
            except BriscolaError as e:
                self.fail(str(e))
                return
            finally:
                self.thinking = False
            self.write(*lines)
            self.note_gathered(tricks)
            await self.show()
            delay = self.pace * (3 if self.gathered is not None else 1)
            if delay:
                self.set_timer(delay, self.step)
            else:
                self.call_later(self.step)
            return
        self.busy = False
        await self.show()
        if s.over:
            self.write(s.standing(), s.seating.words.say("screen.over_keys"))
            if self.save_to is not None:
                self.action_save()

    def note_gathered(self, tricks_before: int) -> None:
        """A trick was just taken: leave its cards on the table for a moment, as a
        player gathers them, then clear them (looking back is the last_trick rule's)."""
        tricks = self.session.view().tricks
        if len(tricks) > tricks_before:
            gathered = self.gathered = tricks[-1]
            self.set_timer(max(3 * self.pace, 0.01), lambda: self.clear_gathered(gathered))

    async def clear_gathered(self, gathered: TrickView) -> None:
        if self.gathered is gathered:
            self.gathered = None
            if not self.thinking:  # else the bot's move shows the table when it is made
                await self.show()

    def fail(self, message: str) -> None:
        """A computer player failed: save what was played, and leave with status 2."""
        if self.save_to is not None:
            try:
                self.session.save(self.save_to)
            except BriscolaError as e:
                message += f"; {e}"
        self.exit(2, return_code=2, message=f"error: {message}")

    async def show(self) -> None:
        s = self.session
        view = s.view()
        voice = s.seating
        self.query_one("#table", Static).update(draw_table(view, voice, self.gathered))
        say = voice.words.say
        status = [s.standing()]
        if voice.points_shown:  # else counted in the head: the hand's end says them
            taken = describe_points(view.sides, view.points, voice)
            status.insert(0, say("view.points", sides=taken))
        if s.over:
            status.append(say("screen.over"))
        elif s.my_turn():
            status.append(say("screen.your_turn"))
        elif view.to_act is not None:
            status.append(say("screen.to_play", who=voice.name(view.to_act)))
        self.query_one("#status", Static).update(" · ".join(status))
        hand = self.query_one("#hand", Horizontal)
        await hand.remove_children()
        choices = self.query_one("#choices", OptionList)
        choices.clear_options()
        points = self.query_one("#points", Input)
        self.choices = menu(view, voice) if s.my_turn() else []
        plays = {a.card: (i, a) for i, a in self.choices if isinstance(a, Play)}
        cards: list[Button] = []
        for card in hand_order(s.rules, view.hand, view.trump):
            if card in plays:
                number, action = plays[card]
                cards.append(CardButton(number, action, voice, card is s.drawn))
            else:  # a card that may not be played now (follow suit, or not your turn)
                face_down = card_face(card, voice.deck, dim=True, lang=voice.card_lang)
                cards.append(Button(face_down, classes="card", disabled=True))
        await hand.mount_all(cards)
        others = [
            Option(f"{i}) {describe_action(a.to_json(), voice)}", id=str(i))
            for i, a in self.choices
            if not isinstance(a, Play)
        ]
        choices.add_options(others)
        choices.display = bool(others)
        point_bids = [a.points for a in view.legal if isinstance(a, Bid) and a.points]
        points.set_class(bool(point_bids) and s.my_turn(), "shown")
        if point_bids:
            points.placeholder = say("screen.points_from", n=min(point_bids))

    def write(self, *lines: str) -> None:
        log = self.query_one("#log", RichLog)
        summary = self.session.seating.words.say("screen.hand_summary")
        for line in lines:
            log.write(line)
            if line.startswith(("=== ", summary)):  # a hand's or the match's summary
                self.notify(line, timeout=8)

    async def take(self, action: Action) -> None:
        if self.busy or not self.session.my_turn():
            return
        self.busy = True  # a second click before the screen changes plays nothing
        tricks = len(self.session.view().tricks)
        self.thinking = True  # an online table waits for the server's answer, in a thread
        try:
            self.write(*await asyncio.to_thread(self.session.act, action))
        except BriscolaError as e:
            self.busy = False
            self.notify(str(e), severity="error")
            await self.show()
            return
        finally:
            self.thinking = False
        self.gathered = None
        self.note_gathered(tricks)
        await self.step()

    # ------------------------------------------------------------------ input

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        if isinstance(event.button, CardButton):
            await self.take(event.button.move)

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        await self.action_choose(int(event.option.id or 0))

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            action = read_bid([event.value.strip()], self.session.view(), self.session.seating)
        except BriscolaError as e:
            self.notify(str(e), severity="error")
            return
        event.input.value = ""
        await self.take(action)

    async def action_choose(self, number: int) -> None:
        for n, action in self.choices:
            if n == number:
                await self.take(action)
                return

    def wait_for_bot(self) -> bool:
        """Whether a computer player is choosing (said to the person, who tries again)."""
        if self.thinking:
            self.notify(self.session.waiting_for())
        return self.thinking

    async def poll(self) -> None:
        """Show what an online table said while it was the person's turn (chat, a move
        made for them when their clock ran out)."""
        if self.busy or self.thinking:
            return
        lines = self.session.poll()
        if lines:
            self.write(*lines)
            await self.step()

    def action_last(self) -> None:
        if not self.wait_for_bot():
            self.notify(last_trick_text(self.session))

    def action_analyse(self) -> None:
        """What each card of the last finished hand cost, in the log (worked out in a
        thread: the screen stays up meanwhile)."""
        if self.wait_for_bot():
            return
        self.run_worker(self._analyse, thread=True, exclusive=True, group="analysis")

    def action_hint(self) -> None:
        """A hint for your seat now, in the log (worked out in a thread)."""
        if self.wait_for_bot():
            return
        self.run_worker(self._hint, thread=True, exclusive=True, group="hint")

    def _hint(self) -> None:
        lines = self.session.hint()
        self.call_from_thread(self.write, "", *lines)
        self.call_from_thread(self.notify, lines[0])

    def _analyse(self) -> None:
        lines = self.session.analysis()
        self.call_from_thread(self.write, "", *lines)
        self.call_from_thread(self.notify, lines[0])

    def action_save(self) -> None:
        if self.wait_for_bot():
            return
        try:
            path = self.session.save(self.save_to or DEFAULT_SAVE)
        except BriscolaError as e:
            said = self.session.seating.words.say("plain.not_saved", why=e)
            self.notify(said, severity="error")
            self.write(said)
            return
        say = self.session.seating.words.say
        self.notify(say("plain.saved", path=path.resolve()))
        self.write(say("plain.saved", path=path))

    def action_leave(self) -> None:
        if self.session.over:
            self.session.close()
            self.exit(0)
            return

        async def leave(answer: bool | None) -> None:
            if answer:
                while self.thinking:  # let the move being chosen be made, then save
                    await asyncio.sleep(0.05)
                if self.save_to is not None:
                    self.action_save()
                self.session.close()
                self.exit(1, return_code=1)

        self.push_screen(LeaveScreen(self.save_to, self.session.seating), leave)
