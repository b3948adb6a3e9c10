"""The running rules program as plain data: frames (which code, where in it,
its locals), the decision a program is waiting on, and the no-answer marker.

The compiled rules create and resume these; the engine's state holds them
(``engine.state`` re-exports them), which is what lets a game suspend on a
decision and be cloned, saved or sent to another process meanwhile.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Protocol, Sequence

if TYPE_CHECKING:       # annotations only: dsl.types imports this module
    from .types import Code


class Frame:
    """One running piece of rules: which code, where in it, its locals."""

    __slots__ = ("code", "pc", "locals", "me", "this")

    def __init__(self, code: int, pc: int, locals_: list, me: int, this: int):
        self.code = code
        self.pc = pc
        self.locals = locals_
        self.me = me
        self.this = this

    def copy(self) -> "Frame":
        return Frame(self.code, self.pc, self.locals[:], self.me, self.this)

    def to_json(self) -> list:
        return [self.code, self.pc, self.locals[:], self.me, self.this]

    @staticmethod
    def from_json(data: list) -> "Frame":
        return Frame(data[0], data[1], list(data[2]), data[3], data[4])


class Decision:
    """Who must choose, the prompt, and the legal options.

    The rules make a decision as a list of option *values* and a describer;
    the options as ``[key, label, value]`` (what a person, a view, a log or a
    replay reads) are made from them only when asked for. Keys never depend
    on the state; labels that do (a die's value) are passed in ``texts``,
    made when the decision was. A decision read back from JSON has its
    options already."""

    __slots__ = ("player", "prompt", "kind", "used", "values", "describer", "texts", "_options")

    def __init__(self, player: int, prompt: str, options: Optional[list], kind: str, used: Optional[list] = None,
                 values: Optional[list] = None, describer: Any = None, texts: Optional[list] = None):
        self.player = player
        self.prompt = prompt
        self.kind = kind
        self.used = used      # action decisions: uses per action this turn, to explain refusals
        self._options = options
        self.values = values if options is None else [o[2] for o in options]
        self.describer = describer
        self.texts = texts

    @property
    def options(self) -> list:
        """The options as [key, label, value] lists (made once, on first use)."""
        if self._options is None:
            d, values, texts = self.describer, self.values, self.texts
            keys = d.keys(values)
            self._options = [[keys[i], d.label(values, i, texts), values[i]] for i in range(len(values))]
        return self._options

    def count(self) -> int:
        return len(self.values)

    def key(self, index: int) -> str:
        """One option's key, without making the others' labels."""
        if self._options is not None:
            return self._options[index][0]
        return self.describer.key(self.values, index)

    def keys(self) -> list[str]:
        if self._options is not None:
            return [o[0] for o in self._options]
        return self.describer.keys(self.values)

    def to_json(self) -> dict:
        return {"player": self.player, "prompt": self.prompt, "kind": self.kind,
                "options": [[o[0], o[1], list(o[2]) if isinstance(o[2], tuple) else o[2]] for o in self.options],
                "used": self.used}

    @staticmethod
    def from_json(data: dict) -> "Decision":
        return Decision(data["player"], data["prompt"], [list(o) for o in data["options"]], data["kind"], data.get("used"))


def numbered(base: str, k: int) -> str:
    """The key of the (k+1)-th option with the same base key: 'x', 'x#2', 'x#3'."""
    return base if k == 0 else f"{base}#{k + 1}"


class ChoiceDescriber:
    """Options of 'choose': items of a collection, plus 'skip' / 'done' (the value ``skip``).
    ``keyer(item)`` gives the item's key; ``text(item, snapshot)`` its label, given what
    the decision kept of the state for it (``texts``: the variables a label reads)."""

    __slots__ = ("keyer", "text", "skip", "skip_key")

    def __init__(self, keyer: Callable, text: Optional[Callable], skip: Any, skip_key: str):
        self.keyer, self.text, self.skip, self.skip_key = keyer, text, skip, skip_key

    def keys(self, values: list) -> list[str]:
        out, seen, keyer, skip = [], {}, self.keyer, self.skip
        for v in values:
            if v == skip:
                out.append(self.skip_key)
                continue
            base = keyer(v)
            k = seen.get(base, 0)
            seen[base] = k + 1
            out.append(numbered(base, k))
        return out

    def key(self, values: list, index: int) -> str:
        v, skip = values[index], self.skip
        if v == skip:
            return self.skip_key
        base = self.keyer(v)
        keyer = self.keyer
        return numbered(base, sum(1 for w in values[:index] if w != skip and keyer(w) == base))

    def label(self, values: list, index: int, texts: Optional[list]) -> str:
        v = values[index]
        if v == self.skip:
            return self.skip_key
        return self.text(v, texts[index] if texts is not None else None)


class OneOfDescriber:
    """Options of 'choose one': the option's label is its key; the value is its number."""

    __slots__ = ("labels", "skip")

    def __init__(self, labels: list, skip: Any):
        self.labels, self.skip = labels, skip

    def keys(self, values: list) -> list[str]:
        return [self.key(values, i) for i in range(len(values))]

    def key(self, values: list, index: int) -> str:
        v = values[index]
        return "skip" if v == self.skip else self.labels[v]

    def label(self, values: list, index: int, texts: Optional[list]) -> str:
        return self.key(values, index)


class ActionDescriber:
    """Options of an action menu, values (action, card, parameter): the key is the
    action's id, or 'id:parameter' numbered within that action and card."""

    __slots__ = ("actions",)

    def __init__(self, actions: list):
        self.actions = actions      # per action index: (id, name, keyer or None, text or None)

    def keys(self, values: list) -> list[str]:
        out = []
        seen: dict = {}
        group = None
        for ai, card, x in values:
            aid, _, keyer, _ = self.actions[ai]
            if keyer is None:
                out.append(aid)
                continue
            if (ai, card) != group:
                group, seen = (ai, card), {}
            base = keyer(x)
            k = seen.get(base, 0)
            seen[base] = k + 1
            out.append(numbered(f"{aid}:{base}", k))
        return out

    def key(self, values: list, index: int) -> str:
        ai, card, x = values[index]
        aid, _, keyer, _ = self.actions[ai]
        if keyer is None:
            return aid
        base = keyer(x)
        k = 0
        j = index - 1
        while j >= 0 and values[j][0] == ai and values[j][1] == card:
            if keyer(values[j][2]) == base:
                k += 1
            j -= 1
        return numbered(f"{aid}:{base}", k)

    def label(self, values: list, index: int, texts: Optional[list]) -> str:
        ai, card, x = values[index]
        _, name, keyer, text = self.actions[ai]
        if keyer is None:
            return name
        return f"{name}: {text(x, texts[index] if texts is not None else None)}"


class _NoAnswer:
    __slots__ = ()

    def __repr__(self) -> str:
        return "NO_ANSWER"

    def __reduce__(self) -> str:
        # Pickled by name, so a state sent to a worker process still holds *the*
        # marker (the rules test ``answer is not NO_ANSWER``).
        return "NO_ANSWER"


NO_ANSWER = _NoAnswer()


class CompiledActionFacts(Protocol):
    """What a running ``play actions`` reads of a chosen action."""

    @property
    def effect(self) -> int: ...          # its code unit

    @property
    def param_slot(self) -> int: ...      # the local its parameter goes to, or -1

    @property
    def scratch(self) -> "Frame": ...     # the frame its effect runs in when it never pauses (reused)


class RunningGame(Protocol):
    """What the compiled rules read of ``st.game`` while they run.

    The compiled instructions never import the engine: the state they are
    given carries its game, and these are the only names they use of it (the
    compiler itself reads a ``dsl.vocabulary.Vocabulary`` instead). The
    engine's ``Game`` provides them; the code tables are the ones the compiler
    wrote to ``Vocabulary.result``. Optional: ``pygen`` (the generated-code
    writer, read with ``getattr``) lets an error name the generated statement's
    YAML line.
    """

    codes: Sequence["Code"]                       # every code unit; Frame.code indexes it
    proc_code: Mapping[str, int]                   # procedure -> code unit
    hook_code: Mapping[tuple[int, str], int]       # (card definition, hook) -> code unit
    handler_code: Mapping[tuple[int, str], int]    # (card definition, event) -> code unit
    card_def_index: Sequence[int]                  # card instance -> its definition
    ncards: int
    slot_owner: Sequence[int]                      # zone slot -> seat, or -1
    slot_card: Sequence[int]                       # zone slot -> host card, or -1
    actions: Sequence[CompiledActionFacts]         # by index, as in an action decision's answer
    menus: Mapping[str, Callable[..., tuple[list, Optional[list]]]]   # generated action menus by group (may be missing)
    action_describer: ActionDescriber              # keys and labels of action decisions' options

    def live_slots(self, st: Any) -> list[int]:
        """Zone slots whose cards' handlers are live in this state (in play, seat in the game)."""
        ...

    def action_options(self, st: Any, fr: Frame, group: str, used: list) -> tuple[list, Optional[list]]:
        """An action group's legal option values (action, card, parameter) and the labels
        that read the state (or None), when no menu was generated for the group."""
        ...
