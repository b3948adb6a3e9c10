"""What a compiled game holds, declared once, for the type checker and the reader.

``meeple.runtime.game.Game`` is made of mixins (``Flow``: the decision
protocol; ``Actions``: action menus; ``Views``: what a seat may see), and each
reads tables that only ``Game`` fills: its constructor (the vocabulary's tables
are copied onto it in a loop, ``Game._expose``) and ``Game.compile``. This
class declares every one of them with its type, and the mixins inherit it, so a
mixin that reads a table that does not exist, or reads one as what it is not,
is a type error (tests/test_types.py runs mypy; it also checks that a built game
has no attribute this class does not declare). It holds no value and no method.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

if TYPE_CHECKING:
    from meeple.dsl.pygen import PyGen
    from meeple.dsl.runtime import ActionDescriber
    from meeple.dsl.types import Code
    from meeple.dsl.typesys import Type
    from meeple.dsl.vocabulary import Vocabulary
    from meeple.loading import model as M
    from meeple.runtime.game import CompiledAction
    from meeple.runtime.redeal import Knowledge


class GameTables:
    """The attributes of a compiled game (``Game``), by the step that sets them."""

    # -- the pack (Game.__init__)
    pack: M.Pack
    defn: M.GameDef
    id: str
    min_players: int
    max_players: int
    max_decisions: int              # choices per game before it is stopped
    vocab: Vocabulary
    hidden_vars: set[str]           # variables nobody sees
    kinds: dict[str, M.CardKindDef]
    card_defs: list[M.CardDef]
    zone_defs: list[M.ZoneDef]

    # -- the vocabulary's tables, the same objects (meeple.dsl.vocabulary.Vocabulary says what each is)
    res_names: list[str]
    res_index: dict[str, int]
    nres: int
    res_min: list[Optional[int]]
    res_max: list[Optional[int]]
    res_start: list[int]
    option_index: dict[str, int]
    option_defaults: list[Any]
    constants: dict[str, dict[int, Optional[int]]]
    enums: dict[str, Sequence[str]]
    enum_of_value: dict[str, str]
    gvar_index: dict[str, int]
    gvar_types: list[Type]
    gvar_defaults: list[Any]
    pvar_index: dict[str, int]
    pvar_types: list[Type]
    pvar_defaults: list[Any]
    npvars: int
    kind_fields: dict[str, dict[str, Type]]
    all_fields: dict[str, Type]
    field_index: dict[str, int]
    kind_cvars: dict[str, dict[str, Type]]
    all_cvars: dict[str, Type]
    cvar_index: dict[str, int]
    ncvars: int
    cvar_default_row: list[Any]
    kind_hooks: dict[str, Sequence[str]]
    all_hooks: tuple[str, ...]
    card_index: dict[str, int]
    card_def_index: list[int]
    card_def_ids: list[str]
    card_names: list[str]
    card_fields: list[tuple]
    kind_cards: dict[str, list[int]]
    kind_pos: list[int]
    card_seat: list[int]
    ncards: int
    zone_index: dict[str, int]
    event_defs: dict[str, M.EventDef]
    proc_defs: dict[str, M.ProcedureDef]
    function_defs: dict[str, M.FunctionDef]
    action_groups: list[str]

    # -- zone slots (Game._layout)
    zone_base: list[int]            # zone -> its first slot
    slot_owner: list[int]           # slot -> seat, or -1
    slot_card: list[int]            # slot -> host card, or -1
    slot_zone: list[int]            # slot -> zone
    nslots: int
    in_play_slots: list[int]
    player_live_slots: list[list[int]]
    card_home: list[int]            # card -> the slot it starts in

    # -- the code tables the compiler fills (Vocabulary.result's, the same objects)
    codes: list[Code]
    proc_code: dict[str, int]
    hook_code: dict[tuple[int, str], int]
    handler_code: dict[tuple[int, str], int]

    # -- the engine's own tables (Game._engine_tables, Game.compile)
    value_var: Optional[int]        # the card variable 'value' (dice), shown in views
    has_value: list[bool]
    actions: list[CompiledAction]
    action_prices: dict[int, list]
    price_errors: list
    max_action_locals: int
    rule_actions: dict[str, list[CompiledAction]]
    card_actions: dict[int, list[CompiledAction]]
    menus: dict[str, Callable]      # generated action menus by group
    setup_code: int
    round_code: int
    scoring_code: int
    end_when: Optional[Callable]
    _end_code: Code
    menu_steps: dict[str, int]
    round_steps: int
    setup_steps: int
    scoring_steps: int
    tiebreak: list[tuple[Optional[Callable], Code]]
    evaluation: Optional[tuple[Optional[Callable], Code]]
    live_score: Optional[tuple[Optional[Callable], Code]]
    score_res: int
    action_describer: ActionDescriber
    pygen: Optional[PyGen]
    can_refuse: bool

    # -- what each seat cannot see (Game.__init__)
    var_columns: tuple[list[int], list[int], list[int], list[int]]   # Views._var_columns, made once
    knowledge: Knowledge            # hidden slots and variables by seat, worked out as asked
