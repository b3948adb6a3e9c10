"""Listing the legal actions of a player's turn, and explaining refusals.

``ActionMenus`` is composed with a compiled game (``game.action_menus``), and its
rules ask it why a choice is refused: rule actions of a group, then the actions
granted by cards lying in the player's live zones, each checked against its
``when``, its per-turn limit and its parameter's ``with`` clause. Generated menus
(``meeple.dsl.pygen``) list the same options without it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from meeple.dsl.runtime import Frame
from meeple.dsl.types import RULE_FAULTS, charge, uses

from meeple.core.catalogue import say
from meeple.core.errors import UNKNOWN, RuleError, RuleFault, suggest
from meeple.runtime.state import State
from meeple.runtime.tables import CompiledAction, ReadOnly

if TYPE_CHECKING:
    from meeple.runtime.game import Game


class ActionMenus(ReadOnly):
    """The legal actions of a turn, listed by the reference back end, and why one is not."""

    def __init__(self, game: Game):
        self.game = game
        self.vocab = game.vocab
        self.layout = game.layout
        self.compiled = game.compiled
        self._seal()

    def group_actions(self, st: State, me: int, group: str) -> list[tuple[CompiledAction, Optional[int]]]:
        """Rule actions of the group, then actions granted by cards in my live zones."""
        out: list[tuple[CompiledAction, Optional[int]]] = [(a, None) for a in self.compiled.rule_actions.get(group, ())]
        if self.compiled.card_actions:
            defs, granted = self.vocab.card_def_index, self.compiled.card_actions
            for slot in self.layout.player_live_slots[me]:
                for c in st.zones[slot]:
                    acts = granted.get(defs[c])
                    if acts:
                        for a in acts:
                            if a.group == group:
                                out.append((a, c))
        return out

    def use_key(self, a: CompiledAction, card: Optional[int]) -> int:
        """The integer that counts uses of an action (granted by ``card``) in a turn."""
        return a.index * (self.vocab.ncards + 1) + (0 if card is None else card + 1)

    def action_options(self, st: State, fr: Frame, group: str, used: list) -> tuple[list, Optional[list]]:
        """The reference listing (generated menus, dsl/pygen.py, must agree with it):
        option values (action, card, parameter), and the labels that read the state
        (None when no option's label does)."""
        me = fr.me
        opts = []
        texts: list = []
        tmp = Frame(-1, 0, [None] * self.compiled.max_action_locals, me, fr.this)
        loc = tmp.locals
        a = None
        try:
            for a, card in self.group_actions(st, me, group):
                if a.per_turn is not None and uses(used, self.use_key(a, card)) >= a.per_turn:
                    continue
                tmp.this = card if card is not None else fr.this
                if a.when is not None and not a.when(st, tmp):
                    continue
                if a.binder is None:
                    opts.append((a.index, card, None))
                    texts.append(None)
                    continue
                _, slot, et, source, cond = a.binder
                shown, ncv = a.shown, self.vocab.ncvars
                items = source(st, tmp)
                factor, where = a.walk
                if factor:           # the parameter's walk, unless folded into the menu's steps (``CompiledRules.menu_steps``)
                    charge(st, len(items) * factor, where)
                for x in items:
                    loc[slot] = x
                    if cond is not None and not cond(st, tmp):
                        continue
                    opts.append((a.index, card, x))
                    texts.append(tuple(st.cvars[x * ncv + i] for i in shown) if shown else None)
        except (*RULE_FAULTS, RuleFault) as exc:
            if a is None:
                raise
            raise self.action_fault(a, exc, st, tmp) from None
        return opts, (texts if any(t is not None for t in texts) else None)

    def action_fault(self, a: "CompiledAction", exc: BaseException, st: State, tmp: Frame) -> RuleError:
        """A fault of an action's 'when' or 'with' while its menu is listed, told in the
        language's words (``meeple.dsl.faults``: the expression that made the value, at its place)."""
        from meeple.dsl.errors import in_words
        for part, code in (("when", a.when_code), ("with", a.binder_code)):
            told = self.game.explain_fault(exc, code, UNKNOWN, st, tmp) if code is not None else None
            if told is not None:
                return RuleError(f"{told[0]} (in the '{part}' of action {a.id})", told[1])
        said = exc.message if isinstance(exc, RuleError) else in_words(exc)
        return RuleError(f"{said} (in action {a.id})")      # located by the run loop: the statement listing it

    def refusal_reason(self, st: State, key: str) -> tuple[str, str, tuple[str, dict]]:
        """Why ``key`` is not a legal option now, as specific as we can tell: (a stable
        code, the message in English, and the message as the catalogue has it with its
        values, so that a screen says it in its reader's language: ``meeple.core.catalogue``).
        The codes are listed on ``IllegalChoice``."""
        code, text, values = self._reason(st, key)
        return code, say(text, **values), (text, values)

    def _reason(self, st: State, key: str) -> tuple[str, str, dict]:
        """``refusal_reason``'s code, message and values. Each message is written out in a
        ``say``, so that the catalogue's test finds it and asks for its translation."""
        dec = st.pending
        keys = dec.keys() if dec else []
        several = dec.matches(key) if dec is not None else []
        if len(several) > 1:
            return "ambiguous", say("'{key}' names several options: {options}"), dict(key=key, options=", ".join(keys[i] for i in several))
        base = key.split(":", 1)[0]
        if dec is not None and dec.kind == "action":
            present = [k for k in keys if k.split(":", 1)[0] == base]
            acts = [a for a in self.compiled.actions if a.id == base]
            if present:
                if ":" in key:
                    return "not_a_choice", say("'{choice}' is not one of the choices for '{action}' ({among}); legal: {legal}"), dict(
                        choice=key.split(":", 1)[1], action=base, among=acts[0].binder_text, legal=", ".join(present))
                return "needs_choice", say("'{action}' needs a choice: {legal}"), dict(action=base, legal=", ".join(present))
            me = st.frames[-1].me
            for a, card in self.group_actions(st, me, self.compiled.actions[dec.options[0][2][0]].group):
                if a.id != base:
                    continue
                tmp = Frame(-1, 0, [None] * a.nlocals, me, card if card is not None else st.frames[-1].this)
                if a.per_turn is not None and uses(dec.used or [], self.use_key(a, card)) >= a.per_turn:
                    return "per_turn", say("'{action}' is allowed {n} time(s) a turn"), dict(action=a.id, n=a.per_turn)
                if a.when is not None and not a.when(st, tmp):
                    if a.refusal:       # the pack's own words for it (view: words)
                        return "unmet", a.refusal, {}
                    return "unmet", say("'{action}' needs: {when}"), dict(action=a.id, when=a.when_text)
                if a.binder is not None:
                    return "nothing_to_choose", say("'{action}': nothing to choose ({among})"), dict(action=a.id, among=a.binder_text)
                return "per_turn", say("'{action}' is allowed {n} time(s) a turn"), dict(action=a.id, n=a.per_turn)
            if acts:
                return "not_available", say("'{action}' is not available to P{n} now"), dict(action=base, n=me + 1)
        close = suggest(key, keys)
        if close:
            return "not_legal", say("'{key}' is not a legal option; legal: {legal} (did you mean '{close}'?)"), dict(
                key=key, legal=", ".join(keys), close=close.split("'")[1])
        return "not_legal", say("'{key}' is not a legal option; legal: {legal}"), dict(key=key, legal=", ".join(keys))
