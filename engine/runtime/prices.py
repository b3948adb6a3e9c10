"""What an option costs its chooser, worked out before they choose.

Two declarations give a price, both written with the rules' own functions so
that the number shown and the number paid come from one text:

- an action's ``price: {RESOURCE: AMOUNT}`` (its ``with:`` parameter in scope), and
  its ``then_at_least: {RESOURCE: AMOUNT}``: what the choices it goes on to ask cost
  at least (dice taken one by one, each priced as it is offered), a floor, not a price;
- a ``choose`` statement's ``price AMOUNT RESOURCE, ...`` clause (the chosen
  item's name and every name the statement sees in scope), read in the frame
  the choice waits in, with the option put where the item goes; and the same
  clause on an option of ``choose one`` (``"hire" if C price E coins:``).

An option of ``choose one`` may also say which card it is about (``"hire" about
first(s in slots where ...)``): read the same way, and named beside the option.

A price is display only: the rules pay it (with the same function or expression),
and ``tests/test_prices.py`` checks, over random games of every shipped pack,
that what an option showed is what choosing it took from the chooser, and that a
price reads nothing its chooser cannot see (it is the same on every re-deal of what
they cannot see). Nothing here changes a state: the step budget, the only thing an
evaluation touches, is given back.
"""
from __future__ import annotations

from typing import Any, Optional

from meeple.dsl.runtime import ActionDescriber, ChoiceDescriber, Frame, OneOfDescriber
from meeple.dsl.types import RULE_FAULTS, STEP_BUDGET

from meeple.core.errors import MeepleError

Price = tuple[tuple[str, int], ...]       # (resource, amount) per resource the option costs


def option_price(game, st, i: int) -> Optional[Price]:
    """What option ``i`` of ``st``'s pending decision costs its chooser, or None when
    it declares no price (or its price cannot be worked out here)."""
    dec = st.pending
    if dec is None or not 0 <= i < len(dec.values):
        return None
    d = dec.describer
    if isinstance(d, ActionDescriber):
        return _action_price(game, st, dec.values[i], game.compiled.action_prices)
    if isinstance(d, ChoiceDescriber) and d.priced is not None and dec.values[i] != d.skip:
        return _choice_price(st, d.priced, dec.values[i])
    if isinstance(d, OneOfDescriber) and d.priced is not None and dec.values[i] != d.skip and d.priced[dec.values[i]]:
        return _choice_price(st, (-1, d.priced[dec.values[i]]), None)
    return None


def option_floor(game, st, i: int) -> Optional[Price]:
    """What the choices action option ``i`` goes on to ask cost its chooser at least (its
    ``then_at_least``), or None: not an action, or none declared. Paid after the price,
    one later choice at a time; ``tests/test_prices.py`` checks it is never more than
    what the action then takes."""
    dec = st.pending
    if dec is None or not 0 <= i < len(dec.values) or not isinstance(dec.describer, ActionDescriber):
        return None
    return _action_price(game, st, dec.values[i], game.compiled.action_floors)


def option_about(game, st, i: int, viewer: Optional[int]) -> Optional[int]:
    """The card option ``i`` of a ``choose one`` is about (its ``about EXPR``, read in the
    frame the choice waits in, as a price is), or of an action (its ``about:``, read as
    its price is), or None: none declared, none found, or a card ``viewer`` may not see
    where it lies (None: a public zone only)."""
    dec = st.pending
    d = dec.describer if dec is not None else None
    if isinstance(d, ActionDescriber):      # an action's 'about:', read as its price is
        about = game.compiled.action_abouts.get(dec.values[i][0]) if game.compiled.action_abouts else None
        if about is None:
            return None
        fn, frame = about[0], _action_frame(st, dec.values[i], about[1])
    elif isinstance(d, OneOfDescriber) and d.about is not None and dec.values[i] != d.skip and st.frames:
        fn = d.about[dec.values[i]]
        top = st.frames[-1]
        frame = Frame(top.code, top.pc, top.locals[:], top.me, top.this)
    else:
        return None
    c = evaluate(st, fn, frame) if fn is not None else None      # what it cannot work out is not named
    if c is None or c < 0:
        return None
    obs = game.observer
    if viewer is None:
        zone = game.vocab.zone_defs[game.layout.slot_zone[st.loc[c]]]
        return c if zone.visibility == "public" else None
    return c if obs.sees_card(st, c, viewer) else None


def decision_prices(game, st) -> list[Optional[Price]]:
    """Each option's price (None where it has none). A price of nothing is shown too
    ('pay 0 coins'): beside options that cost something, it says this one is free."""
    dec = st.pending
    return [option_price(game, st, i) for i in range(len(dec.values))] if dec is not None else []


def decision_floors(game, st) -> list[Optional[Price]]:
    """Each option's floor (``option_floor``; None where it has none)."""
    dec = st.pending
    return [option_floor(game, st, i) for i in range(len(dec.values))] if dec is not None else []


def evaluate(st, fn, frame: Frame) -> Optional[int]:
    """A display-only expression's number (a price, a floor, a total's bound) in ``frame``
    (``worked_out``); None where it cannot be worked out or is no number."""
    value = worked_out(st, fn, frame)
    return value if value.__class__ is int else None


def worked_out(st, fn, frame: Frame) -> Any:
    """A display-only expression's value in ``frame`` (a price, a function a fact names),
    with a step budget of its own and the game's given back; None where it cannot be
    worked out (a price it cannot work out is not shown)."""
    budget = st.budget
    st.budget = STEP_BUDGET        # each evaluation has a step budget of its own
    try:
        return fn(st, frame)
    except (MeepleError, *RULE_FAULTS):
        return None
    finally:
        st.budget = budget


def _action_price(game, st, value, table: dict) -> Optional[Price]:
    prices = table.get(value[0]) if table else None
    if not prices:
        return None
    out = []
    for res, fn, nlocals in prices:
        n = evaluate(st, fn, _action_frame(st, value, nlocals))
        if n is not None:
            out.append((res, n))
    return tuple(out) or None


def _action_frame(st, value, nlocals: int) -> Frame:
    """The frame an action option's display expressions read (a price, a floor, an about):
    its parameter in the first local, the chooser as 'me', the granting card as 'this'."""
    _ai, card, param = value
    locals_ = [None] * max(1, nlocals)
    locals_[0] = param
    return Frame(-1, 0, locals_, st.pending.player, -1 if card is None else card)


def _choice_price(st, priced: tuple[int, tuple], value) -> Optional[Price]:
    """A choose's price, read in the frame that waits on the choice (the top one)."""
    slot, prices = priced           # slot -1: a 'choose one' option, no item to put anywhere
    if not st.frames:
        return None
    top = st.frames[-1]
    if slot >= len(top.locals):
        return None
    out = []
    for res, fn in prices:
        locals_ = top.locals[:]
        if slot >= 0:
            locals_[slot] = value
        n = evaluate(st, fn, Frame(top.code, top.pc, locals_, top.me, top.this))
        if n is not None:
            out.append((res, n))
    return tuple(out) or None
