"""Taking back a player's choices since their last action ('undo' at ``meeple play``'s prompt).

A player who picks the wrong die half-way through an action may go back to the action
menu, as long as going back cannot be used to learn or redraw anything: the action is
still under way (the choice now is theirs and not an action menu: once an action is over,
what the rules do next may tell something, as who plays next), in the same
round, every choice since was their own, nothing random happened (the game's generator has
not moved: no roll, no shuffle), and no card they could not see came into their sight, for
good or for a moment (a card drawn, a hand swapped, a card shown and put back). The last is checked by
replaying the choices since from the copy kept as the action was chosen, noting every
card each move puts in view, and by comparing where the cards lie now with where they
lay then (a swap of two zones moves no single card). The rules stay untouched: the
state simply becomes the copy again, and the choices taken back are not in the log.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from meeple.runtime.state import State


@dataclass(frozen=True)
class UndoPoint:
    """A copy of the state as ``seat`` chose an action (before it was applied)."""

    state: State
    seat: int


def undo_point(st: State) -> UndoPoint:
    """The point to come back to: ``st`` as its pending action decision is answered."""
    assert st.pending is not None
    return UndoPoint(st.clone(), st.pending.player)


def why_not(game: Any, st: State, point: Optional[UndoPoint], seat: int,
            word: Callable[[str], str] = str) -> Optional[str]:
    """Why ``seat`` may not go back to ``point`` now (None: it may), through ``word`` (a
    view's: the catalogue's words in its language, ``meeple.core.catalogue``)."""
    if point is None or point.seat != seat:
        return word("nothing to take back")
    if st.over:
        return word("the game is over")
    if st.pending is None or st.pending.player != seat or st.pending.kind == "action" or st.round != point.state.round:
        return word("the action is over")
    was = point.state._log
    if len(st._log) <= len(was) or any(a[:2] != b[:2] for a, b in zip(st._log, was)):
        return word("nothing to take back")
    if any(e[0] != seat for e in st._log[len(was):]):
        return word("another player has chosen since")
    if st.rng != point.state.rng:
        return word("something random has happened since (a roll, a shuffle)")
    if _revealed(game, st, point):
        return word("a card you could not see has come into view since")
    return None


def take_back(st: State, point: UndoPoint) -> None:
    """Make ``st`` the state of ``point`` again (``why_not`` said it may)."""
    st.restore(point.state.clone())
    st.events.clear()


def _revealed(game: Any, st: State, point: UndoPoint) -> bool:
    """Whether a card hidden from the seat at ``point`` lies in its sight now, or came
    into it on the way (the choices since replayed on a copy that notes each move)."""
    hidden = set(game.observer.hidden_slots_of(point.seat))
    then, now = point.state.loc, st.loc
    unseen = {c for c, slot in enumerate(then) if slot in hidden}
    if any(now[c] not in hidden for c in unseen):
        return True
    if not unseen:
        return False
    replay = point.state.clone()
    replay.track = set()
    for _, index, _ in st._log[len(point.state._log):]:
        game.apply(replay, index)
    return any(c in unseen and slot not in hidden for slot, c in replay.track)
