"""The running rules program as plain data: frames (which code, where in it,
its locals), the decision a program is waiting on, and the no-answer marker.

The compiled rules create and resume these; the engine's state holds them
(``meeple.runtime.state`` re-exports them), which is what lets a game suspend on a
decision and be cloned, saved or sent to another process meanwhile.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Protocol, Sequence

if TYPE_CHECKING:       # annotations only: meeple.dsl.types imports this module
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
            keys = d.keys(values, texts)
            self._options = [[keys[i], d.label(values, i, texts), values[i]] for i in range(len(values))]
        return self._options

    def count(self) -> int:
        return len(self.values)

    def key(self, index: int) -> str:
        """One option's key, without making the others' labels."""
        if self._options is not None:
            return self._options[index][0]
        return self.describer.key(self.values, index, self.texts)

    def keys(self) -> list[str]:
        if self._options is not None:
            return [o[0] for o in self._options]
        return self.describer.keys(self.values, self.texts)

    def positional_key(self, index: int) -> Optional[str]:
        """The key option ``index`` had before keys were stable ('x', 'x#2', ...
        numbered by position among the options with the same id): what logs
        written then hold. None for a decision read back from JSON."""
        if self.describer is None:
            return None
        return self.describer.positional_key(self.values, index)

    def matches(self, want: str) -> list[int]:
        """The options ``want`` names: its exact key, else the options whose
        stable key it fits when parts are left out or added: 'white_die@P2'
        (no value), 'white_die=4' (no owner), or the full 'white_die@P2=4'
        of a die that is the only white one offered (its key is then plain
        'white_die'). Several options are returned only when they differ."""
        keys = self.keys()
        if want in keys:
            return [keys.index(want)]
        d = self.describer
        if not hasattr(d, "full"):      # 'choose one' (labels, not cards), or read back from JSON
            return []
        return fitting([d.full(self.values, i, self.texts) for i in range(len(self.values))], want)

    def find(self, want: str) -> Optional[int]:
        """The index of the one option ``want`` names (see ``matches``), else None."""
        found = self.matches(want)
        return found[0] if len(found) == 1 else None

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


_KEY = re.compile(r"^(?:([^:]*):)?([^:@=#]+)(?:@([^=#]*))?(?:=([^#]*))?(?:#([0-9]+))?$")


def _parts(key: str) -> Optional[tuple]:
    """A key's parts: (action or None, id, owner or None, value or None, number or None)."""
    m = _KEY.match(key)
    if m is None:
        return None
    n = m.group(5)
    return (m.group(1), m.group(2), m.group(3), m.group(4), int(n) if n is not None else None)


def _fits(want: tuple, full: Optional[str]) -> bool:
    """Whether a key's parts fit an option's full key (the parts it gives are equal)."""
    if full is None:
        return False
    have = _parts(full)
    if have is None:
        return False
    return want[0] == have[0] and want[1] == have[1] and all(w is None or w == h for w, h in zip(want[2:4], have[2:4]))


def fitting(fulls: Sequence[Optional[str]], want: str) -> list[int]:
    """The indices of the full keys (None: an option that is not a card) that
    ``want`` fits: equal id (and action), and equal owner / value where it gives
    them. Several only when they differ (ambiguous); of identical ones, the
    first, or the n-th for 'key#n' (choosing either is the same game-wise)."""
    wanted = _parts(want)
    if wanted is None:
        return []
    found = [i for i, f in enumerate(fulls) if _fits(wanted, f)]
    if len({_parts(fulls[i])[:4] for i in found}) > 1:
        return found
    n = wanted[4]
    if n is not None:
        return [found[n - 1]] if 0 < n <= len(found) else []
    return found[:1]


def _stable(bases: list, full: Callable[[int], str]) -> list[Optional[str]]:
    """Stable keys from base keys (None: not an item, key given): an item whose
    base key no other item in the list has keeps it; the others get their full
    key (base plus what tells identical ones apart), numbered only if that
    still repeats."""
    count: dict = {}
    for b in bases:
        if b is not None:
            count[b] = count.get(b, 0) + 1
    out: list[Optional[str]] = []
    seen: dict[str, int] = {}
    for i, b in enumerate(bases):
        if b is None:
            out.append(None)
            continue
        k = b if count[b] == 1 else full(i)
        n = seen.get(k, 0)
        seen[k] = n + 1
        out.append(numbered(k, n))
    return out


class ChoiceDescriber:
    """Options of 'choose': items of a collection, plus 'skip' / 'done' (the value ``skip``).
    ``keyer(item)`` gives the item's key; ``text(item, snapshot)`` its label, given what
    the decision kept of the state for it (``texts``: the variables a label reads);
    ``detail(item, snapshot)`` what tells identical items apart in a key ('@P2=4', or
    '' or None for items that are not cards). Keys are stable (see ``_stable``): they
    name what a player sees, not a position among the options."""

    __slots__ = ("keyer", "text", "skip", "skip_key", "detail", "ids", "priced")

    def __init__(self, keyer: Callable, text: Optional[Callable], skip: Any, skip_key: str,
                 detail: Optional[Callable] = None):
        self.keyer, self.text, self.skip, self.skip_key, self.detail = keyer, text, skip, skip_key, detail
        # a 'choose ... price' statement's prices: (the slot of the chosen item, ((resource,
        # amount), ...)), each amount read in the suspended frame with the item in its slot
        self.priced: Optional[tuple[int, tuple]] = None
        # cards are keyed by their id (keyer is ids.__getitem__): indexing the list makes no call
        # per option when one key is made for the log
        owner = getattr(keyer, "__self__", None)
        self.ids = owner if detail is not None and isinstance(owner, list) else None

    def full(self, values: list, index: int, texts: Optional[list]) -> Optional[str]:
        """A card's key with its details, whether or not another option has its id
        (None for 'skip' and items that are not cards)."""
        v = values[index]
        if v == self.skip or self.detail is None:
            return None
        return self.keyer(v) + self.detail(v, texts[index] if texts is not None else None)

    def alone_key(self, value: Any) -> str:
        """The key of an option of ``value`` that no other option shares: ``keys`` gives
        every option this when they all differ (the same for every describer; what lets a
        caller map options to keys by value, made once a value)."""
        return self.skip_key if value == self.skip else self.keyer(value)

    def keys(self, values: list, texts: Optional[list] = None) -> list[str]:
        skip, keyer = self.skip, self.keyer
        bases = [None if v == skip else keyer(v) for v in values]
        out = _stable(bases, lambda i: self.full(values, i, texts) or bases[i])
        return [self.skip_key if k is None else k for k in out]

    def key(self, values: list, index: int, texts: Optional[list] = None) -> str:
        v, skip, ids = values[index], self.skip, self.ids
        if v == skip:
            return self.skip_key
        if ids is None:
            return self.positional_key(values, index)
        base = ids[v]
        n = 0
        for w in values:
            if w != skip and ids[w] == base:
                n += 1
        if n == 1:
            return base
        mine = self.full(values, index, texts)
        k = 0
        for j in range(index):
            w = values[j]
            if w != skip and ids[w] == base and self.full(values, j, texts) == mine:
                k += 1
        return numbered(mine, k)

    def positional_key(self, values: list, index: int) -> str:
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

    __slots__ = ("labels", "skip", "priced", "about")

    def __init__(self, labels: list, skip: Any):
        self.labels, self.skip = labels, skip
        # per option (by number), its 'price' ((resource, amount), ...) or None, each amount
        # read in the suspended frame; None when no option declares one
        self.priced: Optional[tuple] = None
        # per option (by number), its 'about': the card it is about, read in the suspended
        # frame, or None; None when no option declares one
        self.about: Optional[tuple] = None

    def keys(self, values: list, texts: Optional[list] = None) -> list[str]:
        return [self.key(values, i) for i in range(len(values))]

    def alone_key(self, value: Any) -> str:
        """An option's key: its label (see ``ChoiceDescriber.alone_key``)."""
        return "skip" if value == self.skip else self.labels[value]

    def key(self, values: list, index: int, texts: Optional[list] = None) -> str:
        v = values[index]
        return "skip" if v == self.skip else self.labels[v]

    positional_key = key

    def label(self, values: list, index: int, texts: Optional[list]) -> str:
        return self.key(values, index)


class ActionDescriber:
    """Options of an action menu, values (action, card, parameter): the key is the
    action's id, or 'id:parameter' with the parameter's stable key among the
    options of that action and card (as ``ChoiceDescriber``'s)."""

    __slots__ = ("actions", "details")

    def __init__(self, actions: list, details: Optional[list] = None):
        self.actions = actions      # per action index: (id, name, keyer or None, text or None)
        self.details = details or [None] * len(actions)     # per action index: its parameter's detail or None

    def full(self, values: list, index: int, texts: Optional[list]) -> Optional[str]:
        """'id:card' with the card's details (None when the parameter is not a card)."""
        ai, card, x = values[index]
        aid, _, keyer, _ = self.actions[ai]
        detail = self.details[ai]
        if keyer is None or detail is None:
            return None
        return f"{aid}:{keyer(x)}" + detail(x, texts[index] if texts is not None else None)

    def _group(self, values: list, index: int) -> range:
        """The options next to ``index`` of the same action and card."""
        ai, card, _ = values[index]
        lo = index
        while lo > 0 and values[lo - 1][0] == ai and values[lo - 1][1] == card:
            lo -= 1
        hi = index + 1
        while hi < len(values) and values[hi][0] == ai and values[hi][1] == card:
            hi += 1
        return range(lo, hi)

    def alone_key(self, value: tuple) -> str:
        """The key of an option of ``value`` whose key no other option of its action and
        card shares (see ``ChoiceDescriber.alone_key``): the action's id, with its
        parameter's base key."""
        ai, _, x = value
        aid, _, keyer, _ = self.actions[ai]
        return aid if keyer is None else f"{aid}:{keyer(x)}"

    def keys(self, values: list, texts: Optional[list] = None) -> list[str]:
        out: list = [None] * len(values)
        i = 0
        while i < len(values):
            ai, card, x = values[i]
            aid, _, keyer, _ = self.actions[ai]
            if keyer is None:
                out[i] = aid
                i += 1
                continue
            group = self._group(values, i)
            bases = [f"{aid}:{keyer(values[j][2])}" for j in group]
            keys = _stable(bases, lambda k: self.full(values, group[k], texts) or bases[k])
            out[group.start:group.stop] = keys
            i = group.stop
        return out

    def key(self, values: list, index: int, texts: Optional[list] = None) -> str:
        ai, card, x = values[index]
        aid, _, keyer, _ = self.actions[ai]
        if keyer is None:
            return aid
        if self.details[ai] is None:
            return self.positional_key(values, index)
        ids = keyer.__self__          # a card parameter: keyer is ids.__getitem__ (indexing makes no call)
        base = ids[x]
        lo, hi, n = index, index + 1, 1
        while lo > 0 and values[lo - 1][0] == ai and values[lo - 1][1] == card:
            lo -= 1
            if ids[values[lo][2]] == base:
                n += 1
        end = len(values)
        while hi < end and values[hi][0] == ai and values[hi][1] == card:
            if ids[values[hi][2]] == base:
                n += 1
            hi += 1
        if n == 1:
            return f"{aid}:{base}"
        mine = self.full(values, index, texts)
        k = 0
        for j in range(lo, index):
            if ids[values[j][2]] == base and self.full(values, j, texts) == mine:
                k += 1
        return numbered(mine, k)

    def positional_key(self, values: list, index: int) -> str:
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
    compiler itself reads a ``meeple.dsl.vocabulary.Vocabulary`` instead). The
    engine's ``Game`` provides them as its own attributes (read-only once it is
    built), the same objects as its vocabulary's and compiled tables'; the code
    tables are the ones the compiler wrote to ``Vocabulary.result``. Optional: ``pygen`` (the generated-code
    writer, read with ``getattr``) lets an error name the generated statement's
    YAML line.
    """

    # read-only to the rules: a property here, so the game's own (mutable) tables of
    # narrower types fit (a list of the engine's actions is a Sequence of CompiledActionFacts)
    @property
    def codes(self) -> Sequence["Code"]: ...  # every code unit; Frame.code indexes it

    @property
    def proc_code(self) -> Mapping[str, int]: ...  # procedure -> code unit

    @property
    def hook_code(self) -> Mapping[tuple[int, str], int]: ...  # (card definition, hook) -> code unit

    @property
    def handler_code(self) -> Mapping[tuple[int, str], int]: ...  # (card definition, event) -> code unit

    @property
    def card_def_index(self) -> Sequence[int]: ...  # card instance -> its definition

    @property
    def ncards(self) -> int: ...

    @property
    def slot_owner(self) -> Sequence[int]: ...  # zone slot -> seat, or -1

    @property
    def slot_card(self) -> Sequence[int]: ...  # zone slot -> host card, or -1

    @property
    def actions(self) -> Sequence[CompiledActionFacts]: ...  # by index, as in an action decision's answer

    @property
    def menus(self) -> Mapping[str, Callable[..., tuple[list, Optional[list]]]]: ...  # generated action menus by group (may be missing)

    @property
    def action_describer(self) -> ActionDescriber: ...  # keys and labels of action decisions' options

    def live_slots(self, st: Any) -> list[int]:
        """Zone slots whose cards' handlers are live in this state (in play, seat in the game)."""
        ...

    def action_options(self, st: Any, fr: Frame, group: str, used: list) -> tuple[list, Optional[list]]:
        """An action group's legal option values (action, card, parameter) and the labels
        that read the state (or None), when no menu was generated for the group."""
        ...

    def explain_fault(self, exc: BaseException, code: "Code", where: Any, st: Any, fr: Frame) -> Optional[tuple[str, Any]]:
        """A fault of ``code`` at ``where`` in the language's words, (message, span), or
        None (``meeple.dsl.faults.explain``: it compiles the rule again, watched, so it
        sits above the compiler and the rules reach it through the game)."""
        ...
