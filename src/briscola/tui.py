"""``briscola play``: a full-screen terminal game against the computer (Textual).

The screen shows the trump and stock, the points, the trick on the table, your hand
as buttons, your other choices (exchange, signals, questions, bids, the call) as
buttons, and a log of what your seat saw happen, hand summaries included. Play by
mouse, or by key: 1-9 pick the numbered choice, ``l`` shows the last trick where
the rules allow, ``s`` saves the records, ``q`` quits.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Header, RichLog, Static

from briscola.engine import BriscolaError
from briscola.engine.actions import Action, Play
from briscola.narrate import describe_action, describe_view
from briscola.plain import menu
from briscola.session import Session


class ActionButton(Button):
    """A button that takes one legal action."""

    def __init__(self, number: int, action: Action) -> None:
        label = str(action.card) if isinstance(action, Play) else describe_action(action)
        super().__init__(f"{number}) {label}", classes="play" if isinstance(action, Play) else "")
        self.move = action


class PlayApp(App[int]):
    """One person against bots, to the end of the match."""

    TITLE = "briscola"
    CSS = """
    #status { height: auto; padding: 0 1; background: $boost; }
    #hand { height: auto; padding: 0 1; }
    #choices { height: auto; max-height: 12; padding: 0 1; overflow-y: auto; }
    #hand Button { min-width: 8; margin: 0 1 0 0; }
    #choices Button { width: auto; margin: 0 1 0 0; }
    #log { border: round $primary; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"choose({n})", show=False) for n in range(1, 10)),
        Binding("l", "last", "last trick"),
        Binding("s", "save", "save records"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, session: Session, save_to: str | None = None, pace: float = 0.4) -> None:
        super().__init__()
        self.session = session
        self.save_to = save_to
        self.pace = pace
        """Seconds between the bots' moves, so a person can follow them (0 in tests)."""
        self.busy = False

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical():
            yield Static(id="status")
            yield Horizontal(id="hand")
            yield Horizontal(id="choices")
            yield RichLog(id="log", wrap=True)
        yield Footer()

    async def on_mount(self) -> None:
        s = self.session
        self.sub_title = f"{s.rules.game.name}: you are seat {s.seat}"
        self.write(*s.opening())
        await self.step()

    # ------------------------------------------------------------------ the game loop

    async def step(self) -> None:
        """Let one bot act (then come back after ``pace``), or show the person's choices."""
        s = self.session
        if not s.over and not s.my_turn():
            self.busy = True
            self.write(*s.run_one_bot())
            await self.show()
            if self.pace:
                self.set_timer(self.pace, self.step)
            else:
                self.call_later(self.step)
            return
        self.busy = False
        await self.show()
        if s.over:
            self.write(s.standing(), "press q to leave, s to save the records")
            if self.save_to is not None:
                self.action_save()

    async def show(self) -> None:
        s = self.session
        view = s.view()
        status = describe_view(view)
        if s.over:
            status.append("the match is over")
        elif s.my_turn():
            status.append("your turn")
        else:
            status.append(f"seat {s.hand.turn} to play")
        status.append(s.standing())
        self.query_one("#status", Static).update("\n".join(status))
        hand = self.query_one("#hand", Horizontal)
        choices = self.query_one("#choices", Horizontal)
        await hand.remove_children()
        await choices.remove_children()
        if s.my_turn():
            numbered = menu(view)
            await hand.mount_all([ActionButton(i, a) for i, a in numbered if isinstance(a, Play)])
            await choices.mount_all(
                [ActionButton(i, a) for i, a in numbered if not isinstance(a, Play)]
            )

    def write(self, *lines: str) -> None:
        log = self.query_one("#log", RichLog)
        for line in lines:
            log.write(line)
            if line.startswith(("hand ", "=== ")):  # a hand's or the match's summary
                self.notify(line, timeout=8)

    async def take(self, action: Action) -> None:
        if self.busy or not self.session.my_turn():
            return
        try:
            self.write(*self.session.act(action))
        except BriscolaError as e:
            self.notify(str(e), severity="error")
            return
        await self.step()

    # ------------------------------------------------------------------ input

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        if isinstance(event.button, ActionButton):
            await self.take(event.button.move)

    async def action_choose(self, number: int) -> None:
        if self.busy or not self.session.my_turn():
            return
        legal = self.session.view().legal
        if 1 <= number <= len(legal):
            await self.take(legal[number - 1])

    def action_last(self) -> None:
        last = self.session.view().last_trick
        if last is None:
            self.notify("no trick to show (none taken yet, or the table does not allow it)")
            return
        cards = ", ".join(f"{s}:{c}" for s, c in zip(last.seats, last.cards, strict=True))
        self.notify(f"last trick: {cards}, taken by seat {last.winner}")

    def action_save(self) -> None:
        path = self.session.save(self.save_to or "briscola-match.jsonl")
        self.notify(f"saved the records to {Path(path).resolve()}")
        self.write(f"saved the records to {path}")

    async def action_quit(self) -> None:
        self.exit(0 if self.session.over else 1)
