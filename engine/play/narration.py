"""What each rule did, told to one seat: 'Income: P1 coins +2; P2 coins +3'.

``meeple play`` applies each choice through a ``Narrator``, which follows the rules as
they run (``meeple.runtime.causes``) and looks at the board each time the named step
of the rules changes: what a seat sees changed in that time is what that step did, and
is told under the step's name (a procedure's ``name:``, an action's, a card's, or a
section of the flow). So a card that is public only for a moment (shown, then put back
in the box at the round's end) is told when it is shown, and what a seat cannot see
is told as a count, never by name: the narrator reads the board as ``meeple play``
shows it to that seat (``TerminalView``), hidden zones as counts.

Nothing here runs while games are simulated; a choice applied through it gives the
same game (the golden games are played without it).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from meeple.core.catalogue import say
from meeple.core.errors import MeepleError, Refusal
from meeple.runtime.causes import Cause, RuleCauses

# The narrator's own words, by what they name (in other languages: meeple.core.catalogue;
# the pack's words come from its ``name:``s)
WORDS = {"setup": "Setup", "round": "Round", "scoring": "Final scoring", None: "Rules",
         "hidden card": "a hidden card", "hidden choice": "(hidden)", "hidden": "hidden", "none": "none"}


@dataclass
class Entry:
    """What one named step did, as one seat saw it: its title and the changes, each
    (player or None for the board, what changed, how)."""

    title: str
    items: list = field(default_factory=list)
    who: Optional[int] = None      # the seat whose choice led to it
    card: Optional[Cause] = None   # the card whose name was withheld (told once the seat may see it)


class Narrator:
    """Tells the seats in ``viewers`` what each rule did, step by step, until asked."""

    def __init__(self, view: Any, viewers: list[int]):
        self.view, self.game, self.viewers = view, view.game, list(viewers)
        self.causes = RuleCauses.of(self.game)
        self.pending: dict[int, list[Entry]] = {v: [] for v in self.viewers}
        self.last: dict[int, list[Entry]] = {v: [] for v in self.viewers}   # the latest choice's entries
        self.probe: Optional[Callable[[Any, int, Optional[Cause], list], None]] = None   # tests: each step as it is told
        obs = self.game.observer
        self.var_names = {x.name: x.names for x in (*self.game.defn.variables, *self.game.defn.player_variables)
                          if x.names is not None}
        self.hidden_vars = obs.hidden_vars
        self.revealed = {n for n, _ in self.game.defn.view.reveal}     # zones every seat sees once the game is over

    def forget(self) -> None:
        """Drop what is yet to be told: the choices that did it were taken back ('undo')."""
        for v in self.viewers:
            self.pending[v] = []
            self.last[v] = []

    def term(self, key: Optional[str]) -> str:
        """One of the narrator's words (WORDS), by what it names, in the view's language."""
        return say(WORDS[key], self.view.lang)

    # ------------------------------------------------------------ following a choice
    def apply(self, st: Any, run: Callable[[], Any], hidden_from: frozenset = frozenset()) -> Any:
        """``run()`` (a choice applied to ``st``) with what each named step did kept for
        every viewer; ``hidden_from``: the viewers who may not read the choice itself
        (an action's name is then not told to them, nor any step's that not every option
        of the choice would have run: ``common_titles``). Nothing is kept if ``run``
        raises (a refused choice leaves the state as it was)."""
        who = st.pending.player if st.pending is not None else None
        hidden = [v for v in self.viewers if v in hidden_from]
        safe = self.common_titles(st, hidden) if hidden and st.pending is not None else {}
        menu = st.pending is not None and st.pending.kind == "action"      # an action chosen out of sight: never named
        seen = {v: self.snapshot(st, v) for v in self.viewers}
        told: dict[int, list[Entry]] = {v: [] for v in self.viewers}

        def step(cause: Optional[Cause]) -> None:
            for v in self.viewers:
                now = self.snapshot(st, v)
                items = self.diff(seen[v], now)
                seen[v] = now
                if self.probe is not None:
                    self.probe(st, v, cause, items)
                if not items:
                    continue
                title = self.title(st, cause, v, menu and v in hidden_from)
                if v in safe and title not in safe[v]:       # a step only some options run: it would tell which
                    title = self.term("hidden choice")
                withheld = cause if title == self.term("hidden card") else None
                entries = told[v]
                if entries and (entries[-1].title, entries[-1].card) == (title, withheld):
                    entries[-1].items = self.merge(entries[-1].items, items)
                else:
                    entries.append(Entry(title, items, who, withheld))
        result = self.causes.watch(st, run, step)
        for v in self.viewers:
            self.name_revealed(st, v, told[v])
            self.pending[v].extend(told[v])
            self.last[v] = told[v]
        return result

    def name_revealed(self, st: Any, viewer: int, entries: list[Entry]) -> None:
        """A card's name withheld while it was hidden is told once ``viewer`` may see it
        (the end reveals a zone: ``view: reveal``, as the final board shows it): the
        final scoring then names the cards that score. Entries still withheld stay
        apart only until told (``take`` merges them again under one title)."""
        if not st.over:
            return
        for e in entries:
            if e.card is not None and self.sees_def(st, e.card.id, viewer):
                e.title, e.card = self.title(st, e.card, viewer, False), None

    def common_titles(self, st: Any, viewers: list[int]) -> dict[int, set[str]]:
        """For each of ``viewers``, the names of the steps they would be told whichever
        option of the pending decision were taken (each tried on a copy): a choice hidden
        from them may name only those, since a step that only some options run would
        tell which was taken. Nothing is common where an option cannot be tried."""
        common: dict[int, Optional[set[str]]] = {v: None for v in viewers}
        for i in range(len(st.pending.options)):
            copy = st.clone()
            trial = Narrator(self.view, viewers)
            try:
                trial.apply(copy, lambda: self.game.apply(copy, i))
            except Refusal:
                continue        # not an option after all: it tells nothing
            except MeepleError:
                return {v: set() for v in viewers}
            for v in viewers:
                titles = {e.title for e in trial.last[v]}
                common[v] = titles if common[v] is None else common[v] & titles
        return {v: t or set() for v, t in common.items()}

    def said(self, keys) -> None:
        """Changes already told at once (a board variable the choice set): not told again."""
        for entries in self.last.values():
            for e in entries:
                e.items = [it for it in e.items if it[0] not in keys]

    def take(self, viewer: int, lead: str = "  ") -> list[str]:
        """The lines told to ``viewer`` since they were last taken (and forgotten)."""
        entries: list[Entry] = []
        for e in self.pending.get(viewer, []):
            if not e.items:
                continue
            if entries and (entries[-1].title, entries[-1].who) == (e.title, e.who):   # one step over several choices
                entries[-1] = Entry(e.title, self.merge(entries[-1].items, e.items), e.who)
            else:
                entries.append(e)
        self.pending[viewer] = []
        return [self.view.wrap(lead + self.line(e), len(lead) + 4) for e in entries]

    def title(self, st: Any, cause: Optional[Cause], viewer: int, choice_hidden: bool) -> str:
        """A step's name as ``viewer`` may read it: a card's only while they see one of its copies."""
        lang = self.view.lang
        if cause is None or cause.kind == "flow":
            return self.term(cause.id if cause is not None else None)
        if cause.kind == "card" and not self.sees_def(st, cause.id, viewer):
            return self.term("hidden card")
        if cause.kind == "action" and choice_hidden:
            return self.term("hidden choice")
        return cause.names.get(lang) if cause.names is not None else cause.id

    def sees_def(self, st: Any, card_id: str, viewer: int) -> bool:
        g = self.game
        obs = g.observer
        return any(g.vocab.card_def_ids[c] == card_id and (obs.sees_card(st, c, viewer) or self.shown_at_end(st, c))
                   for c in range(g.ncards))

    def shown_at_end(self, st: Any, c: int) -> bool:
        """Whether card ``c`` lies, the game over, in a zone the end shows every seat."""
        obs = self.game.observer
        return st.over and obs.zones[obs.layout.slot_zone[st.loc[c]]].name in self.revealed

    # ------------------------------------------------------------ what a seat sees
    def snapshot(self, st: Any, viewer: int) -> dict:
        """What ``viewer`` sees of the board's lines: resources, variables (their shown
        value), zones (cards by label, or a count; without the facts a function works out,
        ``card_facts``), a zone of each card per card."""
        g, view = self.game, self.view
        v = g.vocab
        out: dict = {}
        live = view.live_scores(st)
        for p in range(st.players):
            for i, r in enumerate(v.res_names):
                out[(p, r)] = live[p] if live is not None and i == g.compiled.score_res else st.res[p * v.nres + i]
        for p, lines in [(None, view.shared)] + [(p, view.own) for p in range(st.players)]:
            for line in lines:
                if line.what in ("variable", "pvariable"):
                    if line.name in self.hidden_vars:
                        continue
                    if p is None:
                        i = v.gvar_index[line.name]
                        out[(p, line.name)] = ("=", view.value(st.gvars[i], v.gvar_types[i]))
                    else:
                        i = v.pvar_index[line.name]
                        out[(p, line.name)] = ("=", view.value(st.pvars[p * v.npvars + i], v.pvar_types[i]))
                elif line.what == "zone":
                    self._zone(st, line, p, viewer, out)
        return out

    def _zone(self, st: Any, line: Any, p: Optional[int], viewer: int, out: dict) -> None:
        g, view = self.game, self.view
        zi = g.vocab.zone_index[line.name]
        z = g.vocab.zone_defs[zi]
        base = g.vocab.zone_base[zi]
        seen = sees(z, p, viewer)
        if z.of_card is not None:       # an empty zone is None (``diff`` reads it as empty)
            zones = st.zones
            for k in range(len(g.vocab.kind_cards.get(z.of_card, ()))):
                cards = zones[base + k]
                out[(None, line.name, k)] = None if not cards else (
                    len(cards) if line.count else Counter([view.card(c, st, derived=False) for c in cards]) if seen
                    else ("hidden", len(cards)))
            return
        cards = st.zones[base + (p or 0)]
        out[(p, line.name)] = None if not cards else (
            len(cards) if line.count else Counter([view.card(c, st, seat=p is None, derived=False) for c in cards]) if seen
            else ("hidden", len(cards)))

    def diff(self, before: dict, after: dict) -> list:
        """The changes between two snapshots: (key, kind, what) with kind 'n' (a number:
        old, new), 'set' (a variable set: old, new), 'cards' (gained, lost Counters) or
        'hidden' (old count, new count). A variable cleared (set to none) is not told."""
        out = []
        for key, new in after.items():
            old = before.get(key)
            if old == new:
                continue
            if new is None:
                new = _nothing(old)
            elif old is None:
                old = _nothing(new)
            if old == new:
                continue
            if isinstance(new, Counter):
                out.append((key, "cards", (new - old, old - new)))
            elif isinstance(new, tuple) and new[0] == "=":
                if new[1] is not None:
                    out.append((key, "set", (old[1], new[1])))
            elif isinstance(new, tuple):
                out.append((key, "hidden", (old[1], new[1])))
            else:
                out.append((key, "n", (old, new)))
        return out

    def merge(self, first: list, then: list) -> list:
        """Two runs of changes of one step as one (a number's first and last value)."""
        out = {it[0]: it for it in first}
        for key, kind, what in then:
            was = out.get(key)
            if was is None:
                out[key] = (key, kind, what)
            elif kind in ("n", "hidden", "set"):
                out[key] = (key, kind, (was[2][0], what[1]))
            else:
                gained, lost = was[2][0] + what[0], was[2][1] + what[1]
                both = gained & lost
                out[key] = (key, kind, (gained - both, lost - both))
        return [it for it in out.values() if not _empty(it)]

    # ------------------------------------------------------------ the words
    def line(self, e: Entry) -> str:
        """'Income: P1 coins +2; P2 coins +3': the board's changes, then each player's."""
        by: dict = {}
        for key, kind, what in e.items:
            by.setdefault(key[0], []).append(self.change(key, kind, what))
        parts = []
        for p in sorted(by, key=lambda q: -1 if q is None else q):
            text = ", ".join(x for x in by[p] if x)
            if text:
                parts.append(text if p is None else f"P{p + 1} {text}")
        return f"{e.title}: " + "; ".join(parts)

    def change(self, key: tuple, kind: str, what: tuple) -> str:
        name = self.name_of(key)
        if kind == "n":
            d = what[1] - what[0]
            return f"{name} {'+' if d > 0 else ''}{d}"
        if kind == "set":
            return f"{name} {what[0] or self.term('none')} -> {what[1]}"
        if kind == "hidden":
            d = what[1] - what[0]
            return f"{name} {'+' if d > 0 else ''}{d} {self.term('hidden')}"
        gained, lost = what
        words = ([f"+{k}" + (f" x{n}" if n > 1 else "") for k, n in gained.items()]
                 + [f"-{k}" + (f" x{n}" if n > 1 else "") for k, n in lost.items()])
        return f"{name} " + " ".join(words) if words else ""

    def name_of(self, key: tuple) -> str:
        """A line's name: a zone's or variable's declared name, a resource's id; a zone
        of each card with the card's name ('craftsmen (Farmers)')."""
        name = key[1]
        if len(key) == 3:
            g = self.game
            zi = g.vocab.zone_index[name]
            host = g.vocab.kind_cards[g.vocab.zone_defs[zi].of_card][key[2]]
            return f"{self.view.zone_name(name)} ({self.view.name(host)})"
        g = self.game
        if name in self.var_names or name in g.vocab.gvar_index or name in g.vocab.pvar_index:
            return self.view.var_name(name)
        return self.view.zone_name(name)


def sees(z: Any, p: Optional[int], viewer: Optional[int]) -> bool:
    """Whether ``viewer`` sees the cards of zone ``z`` (of player ``p``, or the board's;
    a zone of each card is the board's): public, or their own; never a hidden order."""
    return (z.visibility == "public" or (z.visibility == "owner" and p is not None and p == viewer)) \
        and not (z.ordered and z.visibility != "public")


def _nothing(like: Any) -> Any:
    """An empty zone's value, shaped as ``like`` (a zone left out of a snapshot is empty)."""
    if isinstance(like, Counter):
        return Counter()
    if isinstance(like, tuple):
        return (like[0], 0) if like[0] == "hidden" else ("=", None)
    return 0


def _empty(item: tuple) -> bool:
    _, kind, what = item
    if kind == "cards":
        return not what[0] and not what[1]
    return what[0] == what[1]
