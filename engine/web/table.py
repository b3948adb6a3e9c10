"""One game at a browser table: its line of play, who sits where, and what each seat
was told of every choice.

A table is played (humans and bots, as ``meeple play``) or replayed (a log: nobody
chooses until someone forks it). Each seat has an unguessable token; a page asks for a
token and a step, and gets what that seat may know at that step: its view of the
state there, each choice before it as that seat was told it (``Observer.told``), and
what each rule did as that seat saw it (``meeple.play.narration``). The spectator sees
only what is public; the table view, which the person starting the server turns on,
sees everything.

Bots choose on a copy of the state, with the table unlocked, so pages stay quick
while a planning bot thinks; a choice is applied with the table locked.
"""
from __future__ import annotations

import re
import secrets
import threading
from dataclasses import dataclass
from typing import Any, Optional

from meeple.core.catalogue import LANGUAGES, say
from meeple.core.errors import MeepleError, Refusal, RuleError
from meeple.play.narration import Narrator
from meeple.play.terminal import TerminalView, refused
from meeple.runtime.game import Game
from meeple.runtime.state import State
from meeple.runtime.views import HIDDEN_CHOICE
from meeple.web.timeline import Timeline

TABLE = "table"          # the viewer of the table view: everything


@dataclass(frozen=True)
class Seat:
    """Who a token lets in: a player's seat, the spectator (None) or the table view."""

    token: str
    seat: Optional[int]
    table: bool = False

    @property
    def viewer(self) -> Any:
        """The viewer the observer is asked about: a seat, None (public), or ``TABLE``."""
        return TABLE if self.table else self.seat

    def name(self, lang: str = "en") -> str:
        return say("table view", lang) if self.table else say("spectator", lang) if self.seat is None else f"P{self.seat + 1}"


def new_token() -> str:
    """An unguessable token (128 bits), safe in a URL."""
    return secrets.token_urlsafe(16)


class Table:
    """A game at the table, played on (``agents``) or replayed (``agents`` None)."""

    def __init__(self, game: Game, line: Timeline, live: State, pack_ref: str, agents: Optional[list] = None,
                 lang: str = "en", table_view: bool = False, bot_names: Optional[list[str]] = None):
        self.game, self.line, self.st, self.pack_ref = game, line, live, pack_ref
        self.agents = agents
        self.bot_names = bot_names or ([getattr(a, "name", "bot") for a in agents] if agents else [])
        self.view = TerminalView(game, width=100, lang=lang)      # the server's language (--lang)
        self.views = {lang: self.view}      # a page may ask for another of the known languages (?lang=)
        self.lock = threading.RLock()
        self.version = 0               # grows with every choice: pages waiting for it reload
        self.notes: dict[Any, str] = {}     # a refusal, said once to the seat it refused
        self.error: Optional[tuple[int, str]] = None    # a bot that broke (its seat, why): the game stops there, said on every page
        self.thinking: Optional[int] = None     # the seat whose bot is choosing
        self.bot_values: dict[int, list] = {}   # step -> (label, value, visits or None) of each option a bot weighed
        self._told: dict[tuple, str] = {}
        self._narrated: dict[tuple, list[str]] = {}
        self._worker: Optional[threading.Thread] = None
        self._card_words: dict[str, tuple] = {}
        seats = [Seat(new_token(), p) for p in range(line.players)] + [Seat(new_token(), None)]
        if table_view:
            seats.append(Seat(new_token(), None, table=True))
        self.seats = {s.token: s for s in seats}
        self.host = new_token()        # the host page: every seat's link, to hand out

    # ------------------------------------------------------------ who sits where
    def seat_of(self, token: str) -> Optional[Seat]:
        return self.seats.get(token)

    def is_human(self, p: int) -> bool:
        return self.agents is not None and getattr(self.agents[p], "name", "") == "human"

    def view_in(self, lang: Optional[str] = None) -> TerminalView:
        """The table's view in ``lang`` (one of ``LANGUAGES``; None: the server's)."""
        if lang is None or lang not in LANGUAGES:
            return self.view
        if lang not in self.views:
            self.views[lang] = TerminalView(self.game, width=100, lang=lang)
        return self.views[lang]

    def who(self, p: int, viewer: Any, lang: Optional[str] = None) -> str:
        """'P2 (greedy)', 'P1 (you)', as ``meeple play`` says them."""
        view = self.view_in(lang)
        if viewer == p:
            return f"P{p + 1}" + view.word(" (you)")
        name = self.bot_names[p] if self.bot_names else ""
        return f"P{p + 1} ({view.word(name)})" if name else f"P{p + 1}"

    def card_words(self, lang: Optional[str] = None) -> tuple[Any, dict[str, str]]:
        """The pack's card names in the table's language, as a pattern (longest first,
        whole words), and for each name the first card (by definition) that has it: a
        page links a card name it shows to that card in the drawer. The link is made
        from the name alone, so it tells no more than the name it links."""
        lang = self.view_in(lang).lang
        if lang not in self._card_words:
            first: dict[str, str] = {}
            for d in self.game.vocab.card_defs:
                first.setdefault(d.names.get(lang), d.id)
            names = sorted((n for n in first if n), key=len, reverse=True)
            pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, names)) + r")(?![\w-])") if names else None
            self._card_words[lang] = (pattern, first)
        return self._card_words[lang]

    @property
    def steps(self) -> int:
        return len(self.line)

    # ------------------------------------------------------------ looking back
    def state_at(self, step: int) -> State:
        """A state of its own at ``step`` (the live one copied at the end of the line)."""
        with self.lock:
            if step == self.steps:
                return self.st.clone()
            return self.line.state_at(step)

    def told(self, step: int, viewer: Any, lang: Optional[str] = None) -> str:
        """Choice ``step`` (0-based) as ``viewer`` was told it: 'P2 (greedy) Choose a
        card: (hidden)'. Its own choice and the table view read the label."""
        view = self.view_in(lang)
        key = (step, viewer, view.lang)
        if key not in self._told:
            st = self.state_at(step)
            player, index, _ = self.line.choices[step]
            self._told[key] = f"{self.who(player, viewer, view.lang)} {view.prompt(st.pending.prompt)}: {self._label(st, index, viewer, view)}"
        return self._told[key]

    def _label(self, st: State, index: int, viewer: Any, view: TerminalView) -> str:
        dec = st.pending
        if viewer == TABLE or viewer == dec.player:
            return view.label(st, index, view.localized(st, index, dec.options[index][1]), None if viewer == TABLE else viewer)
        told = self.game.observer.told(st, index, [viewer])
        return view.word(told) if told == HIDDEN_CHOICE else view.label(st, index, view.localized(st, index, told), viewer)

    def narration(self, step: int, viewer: Any, lang: Optional[str] = None) -> list[str]:
        """What choice ``step`` set going, rule by rule, as ``viewer`` saw it (the table
        view: as the spectator saw it; its board shows the rest), with the notes the
        rules wrote."""
        seat = None if viewer == TABLE else viewer
        view = self.view_in(lang)
        key = (step, seat, view.lang)
        if key not in self._narrated:
            st = self.state_at(step)
            player, index, _ = self.line.choices[step]
            dec = st.pending
            hidden = frozenset([seat]) if (seat != player and dec.kind == "action"
                                           and self.game.observer.told(st, index, [seat]) == HIDDEN_CHOICE) else frozenset()
            narrator = Narrator(view, [seat])
            try:
                narrator.apply(st, lambda: self.game.apply(st, index), hidden)
                lines = narrator.take(seat, lead="")
            except (MeepleError, Refusal):
                lines = []
            self._narrated[key] = lines + [view.pack_word(str(note)) for note in st.events]
        return self._narrated[key]

    # ------------------------------------------------------------ choosing
    def choose(self, p: int, index: int, at: int, lang: Optional[str] = None) -> Optional[str]:
        """Seat ``p``'s choice of option ``index`` at step ``at``; the reason it is
        refused (not its turn, the game moved on, a rule said no) in ``lang``, else None."""
        view = self.view_in(lang)
        with self.lock:
            st = self.st
            if self.agents is None or not self.is_human(p):
                return view.word("nobody chooses here: this table replays a log (fork it to play on)")
            if st.over or st.pending is None or st.pending.player != p:
                return view.word("it is not your turn")
            if at != self.steps:
                return view.word("the game moved on since this page was made; look again")
            if not 0 <= index < st.pending.count():
                return view.word("no option {n}", n=index + 1)
            try:
                self.game.apply(st, index)
            except Refusal as err:
                self._moved()       # the state is as it was, or back at the turn's last action
                return view.word("refused: {reason}", reason=refused(view, err))
            self._moved()
        return None

    def undo(self, p: int, at: int, lang: Optional[str] = None) -> Optional[str]:
        """Seat ``p``'s choices since its last action choice taken back (``meeple.play.undo``:
        while that action is under way, nothing random or hidden out since); why not in
        ``lang``, else None."""
        from meeple.play.undo import take_back
        view = self.view_in(lang)
        with self.lock:
            if at != self.steps:
                return view.word("the game moved on since this page was made; look again")
            reason, point = self._undo_check(p, view)
            if reason is not None:
                return view.word("cannot undo: {reason}", reason=reason)
            take_back(self.st, point)
            self._moved()
        return None

    def why_no_undo(self, p: int, lang: Optional[str] = None) -> Optional[str]:
        """Why seat ``p`` may not undo now, in ``lang`` (None: it may; its page offers it)."""
        with self.lock:
            return self._undo_check(p, self.view_in(lang))[0]

    def _undo_check(self, p: int, view: TerminalView) -> tuple[Optional[str], Any]:
        """(why seat ``p`` may not undo now, or None; the point it would go back to)."""
        from meeple.play.undo import why_not
        if self.agents is None or not self.is_human(p):
            return view.word("nobody chooses here: this table replays a log (fork it to play on)"), None
        point = self._undo_point(p)
        return why_not(self.game, self.st, point, p, view.word), point

    def _undo_point(self, p: int) -> Any:
        """The state as seat ``p`` last chose an action, if every choice since was its own
        (the line's states: none kept by the table), else None."""
        from meeple.play.undo import UndoPoint
        choices = self.line.choices
        k = len(choices) - 1
        while k >= 0 and choices[k][0] == p:
            before = self.line.state_at(k)
            if before.pending is not None and before.pending.kind == "action":
                return UndoPoint(before, p)
            k -= 1
        return None

    def _moved(self) -> None:
        """The live game moved (a choice, or a refusal that undid some): the line follows
        it, and what was told of undone steps is forgotten."""
        cut = self.line.follow(self.st)
        for cache in (self._told, self._narrated, self.bot_values):
            for key in [key for key in cache if (key[0] if isinstance(key, tuple) else key) >= cut]:
                del cache[key]
        self.version += 1

    def bot_to_move(self) -> Optional[int]:
        st = self.st
        if self.agents is None or st.over or st.pending is None or self.error is not None:
            return None
        p = st.pending.player
        return None if self.is_human(p) else p

    def advance(self, limit: int = 100_000) -> int:
        """Let the bots choose until a human is to choose or the game ends (at most
        ``limit`` choices); how many they made."""
        made = 0
        while made < limit and self.bot_to_move() is not None:
            self._bot_move()
            made += 1
        return made

    def advance_in_background(self) -> None:
        """``advance`` in a thread of its own (one at a time), so a page is answered at once."""
        with self.lock:
            if self._worker is not None and self._worker.is_alive():
                return
            if self.bot_to_move() is None:
                return
            self._worker = threading.Thread(target=self.advance, daemon=True, name="meeple-bots")
            self._worker.start()

    def busy(self) -> bool:
        """Whether bots are choosing now (in the background)."""
        return self._worker is not None and self._worker.is_alive()

    def _bot_move(self) -> None:
        """One bot's choice, made on a copy (the table open to pages meanwhile), then applied."""
        from meeple.play.session import observation
        with self.lock:
            st = self.st
            dec, p = st.pending, st.pending.player
            copy = st.clone()
            self.thinking = p
        agent = self.agents[p]
        allowed = list(range(dec.count()))
        try:
            while True:
                view = observation(self.game, copy, agent, p)
                labels = getattr(agent, "needs_labels", True)
                pick = agent.choose(view, [dec.options[i] for i in allowed] if labels else allowed)
                values = getattr(agent, "last_values", None)
                with self.lock:
                    step = self.steps
                    try:
                        self.game.apply(self.st, allowed[pick])
                    except Refusal:
                        if self.st.pending is not dec:
                            self._moved()
                            return        # sent back to the action menu: asked anew
                        del allowed[pick]
                        if not allowed:
                            raise
                        continue
                    self._moved()
                    if values:
                        self.bot_values[step] = [(dec.options[allowed[i]][1], v, n) for i, v, n in values]
                    return
        except (RuleError, MeepleError) as err:
            with self.lock:
                self.error = (p, err.message)
                self.version += 1
        except Exception as err:        # a defect of meeple's: said on every page, the game stops there
            with self.lock:
                self.error = (p, f"internal error {type(err).__name__}: {err}")
                self.version += 1
        finally:
            self.thinking = None

    # ------------------------------------------------------------ what a table costs
    def footprint(self) -> dict:
        return {"steps": self.steps, "checkpoints": self.line.footprint(),
                "told": len(self._told), "narrated": len(self._narrated)}
