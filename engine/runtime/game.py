"""A compiled game: a pack's vocabulary and compiled rules, with the rules that run
it and the observer that says what each seat may see composed beside them.

``Game`` is built once per pack and shared, read-only, by every state (and every
worker process): once built, a write onto it (or onto its rules or its observer)
is refused. Its parts, each a typed object:

- ``vocab``: the pack's names and index tables (``meeple.dsl.vocabulary.Vocabulary``),
  what the compiler reads; compiling wrote the code units to ``vocab.result``;
- ``layout`` and ``compiled``: the engine's own tables (``meeple.runtime.tables``);
- ``rules``: the decision protocol (``meeple.runtime.flow.Rules``: new state, apply,
  play out, the end and the ranking), which lists actions through ``action_menus``;
- ``observer``: what a seat may see (``meeple.runtime.views.Observer``).

``new_state``, ``apply``, ``play_out``, ``view`` and ``winners`` are the game's own
methods (the public API, ``meeple.load``), each handing over to its part. The
compiled rules read a few tables and methods of ``st.game`` as they run (declared by
``meeple.dsl.runtime.RunningGame``): those are attributes of the game itself, the
same objects as its parts', so that a read stays one attribute read.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from meeple.dsl.compiler import Code, Compiler
from meeple.dsl.runtime import Decision, Frame
from meeple.dsl.types import CHECKED_ONLY, CheckedOnly
from meeple.dsl.typesys import Type

from meeple.loading import model as M
from meeple.core.errors import PackInvalid, Problems, Span
from meeple.runtime.actions import ActionMenus
from meeple.runtime.build import layout_of, vocabulary_of
from meeple.runtime.compiling import compile_rules
from meeple.runtime.flow import MAIN, MAX_DECISIONS, MAX_DEPTH, STEP_BUDGET, Rules
from meeple.runtime.state import State
from meeple.runtime.tables import CompiledAction, ReadOnly
from meeple.runtime.views import Observer

__all__ = ["Game", "CompiledAction", "load_game", "check_pack", "MAIN", "MAX_DECISIONS", "MAX_DEPTH", "STEP_BUDGET"]


class Game(ReadOnly):
    """A pack compiled: its vocabulary built, its rules checked and compiled (errors and
    warnings go to ``problems``; a game with errors is not to be played), then its rules
    and observer composed with it. ``generate`` (games that will run) writes the rules as
    Python (dsl/pygen.py), the one back end; without it ('meeple validate', 'cards',
    'diff', 'patch', tune's checks of its settings) the rules are checked only, and the
    game can be read (its pack, vocabulary, cards, problems) but runs no rule: starting
    one is refused (``CheckedOnly``). ``maybe_none``: warn of every unguarded use of a
    value that may be none (dsl/guards.py)."""

    def __init__(self, pack: M.Pack, problems: Problems, generate: bool = True, maybe_none: bool = False):
        g = pack.game
        self.pack = pack
        self.defn = g
        self.id = pack.info.id
        self.min_players, self.max_players = g.min_players, g.max_players
        self.max_decisions = g.max_decisions       # choices per game before it is stopped (a loop that never ends)
        self.vocab = v = vocabulary_of(pack)
        self.layout = layout_of(v, pack)
        self.generated = generate         # expressions given outside the pack are written as its rules (``checker``)
        self.compiled = c = compile_rules(pack, v, self.layout, problems, generate, maybe_none)
        v.seal()
        # what the compiled rules read of ``st.game`` (RunningGame): the parts' own objects
        r = v.result
        self.codes, self.proc_code, self.hook_code, self.handler_code = r.codes, r.proc_code, r.hook_code, r.handler_code
        self.card_def_index, self.ncards, self.slot_owner, self.slot_card = v.card_def_index, v.ncards, v.slot_owner, v.slot_card
        self.actions, self.menus, self.menu_steps = c.actions, c.menus, c.menu_steps
        self.action_describer, self.pygen = c.action_describer, c.pygen
        self.action_menus = ActionMenus(self)
        self.rules = Rules(self, self.action_menus)
        self.observer = Observer(self, self.rules)
        self._seal()

    # ------------------------------------------------------------ the public decision protocol
    def new_state(self, players: int, seed: int, prepare: Optional[Callable[[State], None]] = None,
                  track: bool = False, options: Optional[dict] = None, prepare_round: int = 1) -> State:
        """A new game of ``players``, run to its first decision (``Rules.new_state``); refused
        in a game loaded to be checked only (``generate=False``), which runs no rule."""
        if not self.generated:
            raise CheckedOnly(CHECKED_ONLY)
        return self.rules.new_state(players, seed, prepare, track, options, prepare_round)

    def apply(self, st: State, key: str | int) -> None:
        """Apply a choice by option key (or index); an illegal one is refused, the state untouched (``Rules.apply``)."""
        self.rules.apply(st, key)

    def play_out(self, st: State, choose: Callable[[Decision], int],
                 on_choice: Optional[Callable[[State, Decision, int], None]] = None) -> None:
        """Play the game to its end, ``choose(decision)`` giving each option's index (``Rules.play_out``)."""
        self.rules.play_out(st, choose, on_choice)

    def view(self, st: State, player: Optional[int]) -> dict:
        """What ``player`` may see (None: a spectator) (``Observer.view``)."""
        return self.observer.view(st, player)

    def winners(self, st: State) -> list[int]:
        """Players sharing first place after every tie-break (``Rules.winners``)."""
        return self.rules.winners(st)

    # ------------------------------------------------------------ what the running rules call (RunningGame)
    def live_slots(self, st: State) -> list[int]:
        """Zone slots whose cards' handlers are live in ``st`` (in play, seat in the game)."""
        return [s for s in self.layout.in_play_slots if self.slot_owner[s] < st.players]

    def action_options(self, st: State, fr: Frame, group: str, used: list) -> tuple[list, Optional[list]]:
        """An action group's legal options, when no menu was generated for it (``ActionMenus.action_options``)."""
        return self.action_menus.action_options(st, fr, group, used)

    def explain_fault(self, exc: BaseException, code: Code, where: Any, st: State, fr: Frame) -> Optional[tuple[str, Any]]:
        """A rule's fault in the language's words (the error path only: ``meeple.dsl.faults``
        compiles the rule again, watched)."""
        from meeple.dsl.faults import explain
        return explain(self, exc, code, where, st, fr)

    # ------------------------------------------------------------ expressions given outside the pack
    def checker(self, name: str, errors: Optional[list] = None) -> Compiler:
        """A checker for an expression given outside the pack: it is written as Python when the
        game's rules are (by a generator of its own, a module named ``name``; call ``written``
        before running it), else it is checked only, as the rules of a game loaded with
        ``generate=False`` are (its function is None)."""
        comp = Compiler(self.vocab, [] if errors is None else errors)
        if self.generated:
            from meeple.dsl.pygen import PyGen
            comp.gen = PyGen(self.vocab, name)
        return comp

    def evaluate(self, st: State, text: str, player: Optional[int] = None) -> Any:
        """The value of an effect-language expression in a state (``me`` is
        ``player``): for tests, tools and a designer's console. Errors are raised."""
        from meeple.dsl.parser import parse
        from meeple.dsl.types import Unit, _Scope
        from meeple.dsl.source import TextOrigin
        if not self.generated:
            raise CheckedOnly(CHECKED_ONLY)
        origin = TextOrigin("<expression>", 1, 1, False)
        unit = Unit(Code("expression"), origin, _Scope())
        errors: list = []
        comp = self.checker("evaluate")
        fn = comp.expr(unit, parse(text, origin, "expr_start")).fn
        comp.written()
        st.budget = STEP_BUDGET            # an evaluation has a step budget of its own
        return fn(st, Frame(-1, 0, [None] * (unit.code.nlocals + 1), -1 if player is None else player, -1))

    def expression(self, text: str, want: Optional[Type] = None, name: str = "--eval") -> tuple[Callable, Code]:
        """Compile an effect-language expression given outside the pack (a bot's evaluation
        on the command line, ``--eval``), checked as the pack's own texts are: (its generated function, its
        code: the locals it needs and the name its run-time errors give). Its text is a file
        of one line named ``name`` for its errors, which show it with a caret; PackInvalid
        lists them."""
        from meeple.dsl.source import Source, TextOrigin
        from meeple.core.errors import remember_source
        if not self.generated:
            raise CheckedOnly(CHECKED_ONLY)
        remember_source(name, text)
        origin = TextOrigin(name, 1, 1, False)
        errors: list = []
        comp = self.checker(name, errors)
        fn, code = comp.expression(name, Source(text, origin, Span(name, 1, 1, max(1, len(text)))), want=want)
        comp.written()
        if errors or fn is None:
            problems = Problems()
            problems.extend(errors)
            raise PackInvalid(problems)
        return fn, code


def check_pack(pack: M.Pack, problems: Problems, maybe_none: bool = False) -> Optional[Game]:
    """Build and compile ``pack`` for checking only ('meeple validate'), also when loading
    it reported errors: what loaded is still compiled, so the errors of its rules are
    reported in the same run. When the game's declarations have errors (an unknown
    type, a zone holding an unknown card kind: ``Problems.declarations_broken``), or the
    pack as loaded cannot be built, the rules are not compiled (they would only echo
    those errors): None, with the errors found before.  A pack without load errors is
    compiled as always. ``maybe_none``: also warn of every unguarded use of a value that
    may be none (dsl/guards.py)."""
    if problems.declarations_broken:
        return None
    errors, hidden = len(problems.errors), len(problems.hidden)
    try:
        game = Game(pack, problems, generate=False, maybe_none=maybe_none)      # checking only: nothing is generated
    except Exception:
        if not errors:
            raise
        del problems.errors[errors:], problems.hidden[hidden:]
        return None
    return game


def load_game(name: str, sets: tuple = (), generate: bool = True) -> Game:
    """Load, validate and compile a pack (an id or a folder, or several joined by '+':
    a game and packs that extend it); PackInvalid lists every error. A pack this process
    has loaded before, its files unchanged, is not compiled again (``meeple.runtime.loaded``)."""
    from meeple.loading.folders import resolve_all
    from meeple.runtime.loaded import loaded
    roots = resolve_all(name)
    key = (tuple(str(r.resolve()) for r in roots), tuple(sets), generate)
    return loaded(key, lambda: _load(roots, tuple(sets), generate))


def _load(roots: list, sets: tuple, generate: bool) -> Game:
    from meeple.loading.pack import read_packs
    problems = Problems()
    pack = read_packs(roots, problems, sets)
    if pack is None or problems.errors:
        raise _invalid(problems, sets)
    game = Game(pack, problems, generate=generate)
    if problems.errors:
        raise _invalid(problems, sets)
    return game


def _invalid(problems: Problems, sets: tuple) -> PackInvalid:
    """The pack's errors, those about a --set change naming it."""
    if sets:
        from meeple.loading.sets import name_set_changes
        name_set_changes(problems.errors, tuple(sets))
    return PackInvalid(problems)


if TYPE_CHECKING:
    from meeple.dsl.runtime import RunningGame

    def _runs_compiled_rules(game: Game) -> RunningGame:
        """Read by the type checker only (tests/test_types.py runs it): a ``Game`` offers
        all that the compiled rules read of ``st.game``, each with its type; a table or
        method it lacks, or has of another type, is an error here."""
        return game
