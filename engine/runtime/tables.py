"""The engine's own tables of a compiled game, beside its vocabulary.

A ``meeple.runtime.game.Game`` holds the pack's ``Vocabulary`` (names and index
tables the compiler reads: ``meeple.dsl.vocabulary``) and two tables of its own,
made once and read-only after: the zone slots' ``Layout`` (built from the
vocabulary before any rule is compiled) and the ``CompiledRules`` (what compiling
the rules made: code units of the flow, actions, menus and what each is charged).
Both are frozen dataclasses: a read is a plain attribute read, and a write after
the game is built is refused. The game and the parts composed with it (its rules,
its observer) are ``ReadOnly`` for the same reason: one compiled game is shared by
every game played with it.
"""
from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, field
from typing import TYPE_CHECKING, Callable, Optional

from meeple.dsl.runtime import ActionDescriber, Frame
from meeple.dsl.types import Code

if TYPE_CHECKING:
    from meeple.dsl.pygen import PyGen


class ReadOnly:
    """An object whose attributes are set while it is built and never after: ``_seal``
    ends the building, and a later write or delete raises ``FrozenInstanceError`` (an
    ``AttributeError``, as a frozen dataclass raises). Only writes pay for the check:
    reads stay plain attribute reads, which the hot paths make constantly."""

    _sealed = False

    def _seal(self) -> None:
        object.__setattr__(self, "_sealed", True)

    def __setattr__(self, name: str, value: object) -> None:
        if self._sealed:
            raise FrozenInstanceError(f"a compiled game is read-only once built: cannot set {name!r} of its {type(self).__name__}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if self._sealed:
            raise FrozenInstanceError(f"a compiled game is read-only once built: cannot delete {name!r} of its {type(self).__name__}")
        object.__delattr__(self, name)


@dataclass
class CompiledAction:
    """One action of the pack (a rule's, or granted by a card), compiled. Compiling fills
    in its charges and labels after it is made (``steps``, ``shown``); a running effect
    reuses its ``scratch`` frame."""
    index: int
    id: str
    group: str
    name: str
    card_def: int            # -1 for a rule action
    when: Optional[Callable]
    when_text: str
    binder: Optional[tuple]  # (var, slot, type, source, cond)
    binder_text: str
    param_slot: int
    effect: int
    per_turn: Optional[int]
    refusal: Optional[str]
    nlocals: int
    menu_meta: Optional[tuple] = None     # generated menus: the parameter's source before copying, its type, caches
    shown: tuple = ()                     # card variables its options' labels read (a die's value): kept with the decision
    # its part of a menu, in steps: its walks folded (``meeple.dsl.steps.StepPlanner.fold``), in
    # its 'when' and its parameter; and how the parameter's walk is charged when it is not: (factor, where)
    menu_cost: int = 0
    walk: tuple = (0, None)
    steps: int = 0                        # what its effect is charged as it starts (0: little enough to be free)
    # the frame its effect runs in when the effect never pauses: reused, since such an
    # effect runs to its end before the next action can be chosen (no state keeps it)
    scratch: Frame = field(default_factory=lambda: Frame(-1, 0, [], -1, -1))
    # the codes its 'when' and 'with' were compiled into (their recipes): a fault while a
    # menu lists it is told in the language's words (``ActionMenus.action_fault``)
    when_code: Optional[Code] = None
    binder_code: Optional[Code] = None


@dataclass(frozen=True)
class Layout:
    """Zone slots beyond the vocabulary's (``zone_base``, ``slot_owner``, ``slot_card``),
    numbered for the largest game so that compiled code works at every player count."""
    slot_zone: list[int]               # slot -> its zone
    nslots: int
    in_play_slots: list[int]           # slots of zones whose cards' handlers are live
    player_live_slots: list[list[int]]  # seat -> its in-play slots (where cards grant it actions)
    card_home: list[int]               # card -> the slot it starts in


@dataclass(frozen=True)
class CompiledRules:
    """What compiling the pack's rules made that the engine reads (the code units
    themselves are the vocabulary's ``result.codes``)."""
    actions: list[CompiledAction]                    # by index, as in an action decision's answer
    rule_actions: dict[str, list[CompiledAction]]   # group -> the rules' actions
    card_actions: dict[int, list[CompiledAction]]   # card definition -> the actions it grants
    action_prices: dict[int, list]      # action index -> (resource, amount, locals): display only
    action_floors: dict[int, list]      # the same: what the action's later choices cost at least
    action_abouts: dict[int, tuple]     # action index -> (the card it is about, locals): display only
    max_action_locals: int
    menus: dict[str, Callable]          # generated action menus by group (none when checked only)
    action_describer: ActionDescriber   # keys and labels of action decisions' options
    menu_steps: dict[str, int]          # group -> the steps of its menu, charged as a turn starts
    setup_code: int
    round_code: int
    scoring_codes: tuple[int, ...]      # the final scoring's parts, in order (flow.scoring)
    end_when: Optional[Callable]
    end_code: Code
    setup_steps: int
    round_steps: int
    scoring_steps: tuple[int, ...]      # each part's, charged as it begins
    tiebreak: list[tuple[Optional[Callable], Code]]
    evaluation: Optional[tuple[Optional[Callable], Code]]
    live_score: Optional[tuple[Optional[Callable], Code]]
    rounds: Optional[tuple[Optional[Callable], Code]]     # view: rounds, how many rounds the game lasts (display only)
    limits: dict[str, tuple]            # view: totals' at_most: zone -> (amount, its code, what for) (display only)
    score_res: int                      # the resource that is the score
    can_refuse: bool                    # some rule can refuse mid-effect ('require'): apply keeps a copy
    pygen: Optional[PyGen]              # the generated rules (None: checked only, ``generate=False``)
    # view: facts naming a function of one card: (kind, function) -> (its generated function, its code, its type) (display only)
    fact_functions: dict[tuple[str, str], tuple] = field(default_factory=dict)
