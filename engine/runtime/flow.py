"""The decision protocol: starting a game, running its rules to the next
decision, applying a choice (or refusing it with a reason, the state
untouched), the end of the game and its ranking.

``Rules`` is composed with a compiled game (``game.rules``), beside its observer;
the flow itself (setup, rounds, end condition, scoring) is driven by ``_main`` as
frame ``MAIN`` so that a suspended game is plain data like everything else.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional, cast

from meeple.dsl.compiler import SKIP, STOP, SUSPEND
from meeple.dsl.runtime import NO_ANSWER, Decision, Frame
from meeple.dsl.types import RULE_FAULTS, STEP_BUDGET, charge, named_error

from meeple.core.errors import IllegalChoice, MeepleError, Refusal, RuleError, suggest
from meeple.loading.model import MAX_DECISIONS  # noqa: F401  (re-export: choices per game unless the pack says otherwise)
from meeple.runtime.state import State, refill
from meeple.runtime.actions import ActionMenus
from meeple.runtime.tables import ReadOnly

if TYPE_CHECKING:
    from meeple.runtime.game import Game

MAX_DEPTH = 1_000         # procedures, hooks and events running inside each other
MAIN = -100               # the frame that drives the flow


def in_game(err: RuleError, st: State) -> RuleError:
    """A rule error raised while a game runs, told (once) the game's seed and how many
    choices were made: what reproduces it (``meeple play --seed``, a replay of the log)."""
    if err.choice is None:
        err.seed, err.choice = st.seed, len(st.log)
        when = "before the first choice" if not st.log else f"after choice {len(st.log)}"
        err.message = f"{err.message} (game seed {st.seed}, {when})" if st.seed is not None else f"{err.message} ({when})"
    return err


class Rules(ReadOnly):
    """Running a compiled game: a new state, a choice applied (or refused), a game
    played out, its end and ranking. It reads the game's vocabulary and compiled
    rules; the few tables read at every choice are its own attributes (the same objects)."""

    def __init__(self, game: Game, action_menus: ActionMenus):
        self.game = game
        self.vocab = game.vocab
        self.layout = game.layout
        self.compiled = game.compiled
        self.action_menus = action_menus        # an action's refusal explained
        self.codes = game.vocab.result.codes    # read at every choice: plain attributes
        self.max_decisions = game.max_decisions
        self.can_refuse = game.compiled.can_refuse
        self._seal()

    def resolve_options(self, given: dict) -> list:
        """Option values in declaration order; unknown names and wrong types are refused."""
        v = self.vocab
        values = list(v.option_defaults)
        for name, value in given.items():
            if name not in v.option_index:
                raise IllegalChoice(f"{self.game.id} has no option '{name}'"
                                    + (f" (options: {', '.join(v.option_index)})" if v.option_index else " (it has no options)"),
                                    hint=suggest(name, list(v.option_index)))
            i = v.option_index[name]
            default = v.option_defaults[i]
            if isinstance(default, bool):
                if isinstance(value, str):
                    if value.lower() not in ("true", "false", "on", "off", "yes", "no", "1", "0"):
                        raise IllegalChoice(f"option '{name}' is true or false, not {value!r}")
                    value = value.lower() in ("true", "on", "yes", "1")
                value = bool(value)
            else:
                try:
                    value = int(value)
                except (TypeError, ValueError):
                    raise IllegalChoice(f"option '{name}' is a number, not {value!r}") from None
            values[i] = value
        return values

    def new_state(self, players: int, seed: int, prepare: Optional[Callable[[State], None]] = None,
                  track: bool = False, options: Optional[dict] = None, prepare_round: int = 1) -> State:
        """A new game, run to its first decision. ``prepare`` (used by
        scenarios) may change the state between setup and the first round, or
        when round ``prepare_round`` is about to begin (before the end test and
        any rule of that round: the choices before it are the caller's)."""
        g, v = self.game, self.vocab
        if not g.min_players <= players <= g.max_players:
            raise IllegalChoice(f"{g.id} is played by {g.min_players} to {g.max_players} players, not {players}")
        from meeple.core.rng import seed_state
        st = State(g, players)
        st.rng = seed_state(seed)
        st.track = set() if track else None
        st.opts = self.resolve_options(options or {})
        st.res = [v.res_start[r] for _ in range(players) for r in range(v.nres)]
        st.pvars = [d for _ in range(players) for d in v.pvar_defaults]
        st.gvars = list(v.gvar_defaults)
        st.zones = [[] for _ in range(self.layout.nslots)]
        st.own = [True] * self.layout.nslots      # a new state owns all its zone lists
        st.loc = [0] * v.ncards
        for c, home in enumerate(self.layout.card_home):
            st.zones[home].append(c)
            st.loc[c] = home
        st.cvars = v.cvar_default_row * v.ncards
        if "owner" in v.cvar_index:
            oi = v.cvar_index["owner"]
            for c, seat in enumerate(v.card_seat):
                if seat >= 0:
                    st.cvars[c * v.ncvars + oi] = seat
        st.frames = [Frame(MAIN, 0, [], -1, -1)]
        st.prepare = (prepare_round, prepare) if prepare is not None else None   # kept on the state: setup may ask players first
        st.seed = seed
        try:
            self.run(st)
        except RuleError as err:
            raise in_game(err, st) from None
        return st

    def run(self, st: State, choose: Optional[Callable[[Decision], int]] = None,
            on_choice: Optional[Callable[[State, Decision, int], None]] = None) -> None:
        """Run rules until a decision is needed or the game ends; with ``choose``
        (see ``play_out``), until the game ends, each decision answered where it
        is asked."""
        codes = self.codes
        frames = st.frames
        if st.meter is not None:           # what read the paused state used (a planning bot's sample)
            st.meter.take(STEP_BUDGET - st.budget)
        st.budget = STEP_BUDGET        # the steps of the rules until the next choice (see meeple.dsl.types.charge)
        asking = False                 # True while ``choose`` answers: its errors are not the rules'
        while frames:
            fr = frames[-1]
            if fr.code == MAIN:
                if self._main(st, fr):      # its expressions name their own errors (see ``_value``)
                    continue
                return
            instrs = codes[fr.code].instrs
            pc = fr.pc
            n = len(instrs)
            try:
                while True:
                    if pc >= n:
                        frames.pop()
                        break
                    nxt = instrs[pc](st, fr)
                    if nxt < 0:
                        if nxt == SUSPEND:
                            fr.pc = pc
                            if choose is None:
                                if st.meter is not None:          # a planning bot's sample: the steps go to its decision's budget
                                    st.meter.take(STEP_BUDGET - st.budget)
                                st.budget = STEP_BUDGET     # a paused game has its whole budget (what reads it next starts afresh)
                                return
                            # answered here, and the rules go on at the same instruction
                            asking = True
                            dec = st.pending
                            index = choose(dec)
                            values = dec.values
                            if index.__class__ is not int or not 0 <= index < len(values):
                                raise IllegalChoice(f"option {index!r} is out of range (0..{len(values) - 1})",
                                                    code="out_of_range")
                            if len(st._log) + st.refused >= self.max_decisions:    # as apply bounds them
                                raise self.too_many_choices(st)
                            st._log.append([dec.player, index, dec])
                            if on_choice is not None:
                                on_choice(st, dec, index)
                            asking = False
                            st.pending = None
                            value = values[index]
                            st.answer = value if value != SKIP else SKIP
                            if st.meter is not None:          # a planning bot's sample: the steps go to its decision's budget
                                st.meter.take(STEP_BUDGET - st.budget)
                            st.budget = STEP_BUDGET     # the step budget is per choice, as when each is applied
                            continue
                        if nxt == STOP:
                            frames.pop()
                        elif len(frames) > MAX_DEPTH:
                            frames.pop()
                            raise RuleError(f"rules call themselves more than {MAX_DEPTH} deep (a procedure or event that never stops?)")
                        break
                    pc = nxt
            except MeepleError as err:
                if asking:
                    raise
                raise named_error(self.game, err, codes[fr.code], codes[fr.code].spans[pc], st, fr)
            except RULE_FAULTS as exc:
                if asking:
                    raise
                raise named_error(self.game, exc, codes[fr.code], codes[fr.code].spans[pc], st, fr) from None

    def _main(self, st: State, fr: Frame) -> bool:
        """The flow: setup, rounds until the end condition, scoring. True to go on."""
        stage = fr.pc
        c, defn = self.compiled, self.game.defn
        if stage == 0:
            fr.pc = 1
            charge(st, c.setup_steps, defn.setup.span)
            st.frames.append(Frame(c.setup_code, 0, [None] * self.codes[c.setup_code].nlocals, -1, -1))
            return True
        if stage == 1:
            if st.round == 0:
                refill(st)      # the setup had a budget of its own: the first round starts afresh
            if st.prepare is not None and st.round + 1 >= st.prepare[0]:
                prepare, st.prepare = st.prepare[1], None
                prepare(st)
            if st.round > 0 and (self._test_end(st) or st.round >= defn.max_rounds):
                refill(st)      # so has the end of the game: the final scoring and the ranking
                st.breakdown = ()
                st.played = st.scored       # what the rules score from here is the final scoring's
                stage = 2
            else:
                charge(st, c.round_steps, defn.round.span)     # rounds without a choice are bounded too
                st.round += 1
                st.frames.append(Frame(c.round_code, 0, [None] * self.codes[c.round_code].nlocals, -1, -1))
                return True
        # stage 2 + k: the final scoring's first k parts are done; each part's score is
        # taken as it ends (st.breakdown), so the final breakdown needs no rule of its own
        done = stage - 2
        r, nr = c.score_res, self.vocab.nres
        st.breakdown += (tuple(st.res[p * nr + r] for p in range(st.players)),)
        if done < len(c.scoring_codes):
            fr.pc = stage + 1
            code = c.scoring_codes[done]
            charge(st, c.scoring_steps[done], defn.scoring[done].body.span)
            st.frames.append(Frame(code, 0, [None] * self.codes[code].nlocals, -1, -1))
            return True
        self._finish(st)
        st.frames.pop()
        return True

    def _test_end(self, st: State) -> bool:
        return bool(self._value(self.compiled.end_when, self.compiled.end_code, self.game.defn.end_when, st, -1))

    def _value(self, fn: Callable, code, src, st: State, me: int):
        """An expression of the flow or the score (end_when, a tie-break), evaluated outside any
        running unit: its errors are rule errors at its text, as a statement's are."""
        fr = Frame(-1, 0, [None] * max(1, code.nlocals), me, -1)
        try:
            return fn(st, fr)
        except MeepleError as err:
            raise named_error(self.game, err, code, src.span, st, fr) from None
        except RULE_FAULTS as exc:
            raise named_error(self.game, exc, code, src.span, st, fr) from None

    def _finish(self, st: State) -> None:
        refill(st)     # the ranking's tie-breaks, and whatever reads the finished game, start afresh
        st.over = True
        st.pending = None
        r, nr = self.compiled.score_res, self.vocab.nres
        st.scores = [st.res[p * nr + r] for p in range(st.players)]
        keys = self.rank_keys(st)
        st.ranking = sorted(range(st.players), key=lambda p: (tuple(-x for x in keys[p]), p))

    def winners(self, st: State) -> list[int]:
        """Players sharing first place after every tie-break (usually one)."""
        keys = self.rank_keys(st)
        best = max(keys)
        return [p for p in range(st.players) if keys[p] == best]

    def rank_keys(self, st: State) -> list[tuple]:
        """Each player's score then tie-breaks, best first when sorted down. The tie-breaks are
        evaluated with a step budget of their own (the game may have ended on its last step)."""
        out = []
        if self.compiled.tiebreak:
            refill(st)
        for p in range(st.players):
            k = [st.scores[p]]
            for (fn, code), src in zip(self.compiled.tiebreak, self.game.defn.tiebreak):
                v = self._value(fn, code, src, st, p)
                k.append(v if v is not None else -10**9)
            out.append(tuple(k))
        return out

    def repose(self, st: State) -> None:
        """Ask the pending decision again after the state was changed from outside
        (a scenario's ``arrange`` step): the instruction that asked it runs again
        without an answer, so its options are those of the state as it now is."""
        st.pending = None
        st.answer = NO_ANSWER
        try:
            self.run(st)
        except RuleError as err:
            raise in_game(err, st) from None

    def too_many_choices(self, st: State) -> RuleError:
        """The error of a game that reached its bound on choices (a loop of choices that
        never ends), at the statement asking the pending one."""
        fr = st.frames[-1]
        code = self.codes[fr.code]
        err = RuleError(f"the game reached {self.max_decisions} choices{f' ({st.refused} of them undone by refusals)' if st.refused else ''} "
                        "without ending (a loop of choices that never ends? a longer game sets flow: max_decisions)")
        named = named_error(self.game, err, code, code.spans[fr.pc] if fr.pc < len(code.spans) else None)
        return in_game(cast(RuleError, named), st)      # the error given, named

    def play_out(self, st: State, choose: Callable[[Decision], int],
                 on_choice: Optional[Callable[[State, Decision, int], None]] = None) -> None:
        """Play the game to its end, ``choose(decision)`` giving the index of each
        option taken: the same game, log and scores as ``apply`` with those indices,
        but the rules go on where each decision is asked instead of returning to the
        caller between choices (the hot path of random playouts, 8% fewer
        instructions a decision). ``on_choice(st, decision, index)`` is told of each
        choice as it is taken, counted in ``st.choices()``, before its effects run.

        The decision pending when it is called is asked again where it stands (as
        ``repose`` does: the same options), so that every choice is taken in the
        run loop. An index out of range is refused with IllegalChoice, the state as
        it was. Packs that can refuse a choice mid-effect are played through
        ``apply``, which keeps the state to go back to; a refusal is raised to the
        caller as ``apply`` raises it (``meeple.play.session.play`` chooses again)."""
        if self.can_refuse:
            while not st.over:
                dec = st.pending
                index = choose(dec)
                self.apply(st, index)
                if on_choice is not None:
                    on_choice(st, dec, index)
            return
        if st.over:
            return
        st.pending = None
        st.answer = NO_ANSWER
        try:
            self.run(st, choose, on_choice)
        except RuleError as err:
            raise in_game(err, st) from None

    def apply(self, st: State, key: str | int) -> None:
        """Apply a choice by option key (or index). Refuses illegal ones, state untouched."""
        dec = st.pending
        if dec is None:
            raise IllegalChoice("no decision is pending" + (" (the game is over)" if st.over else ""), code="no_decision")
        if key.__class__ is int:      # an option's index (a bool is not one)
            if not 0 <= key < len(dec.values):
                raise IllegalChoice(f"option {key} is out of range (0..{dec.count() - 1})", code="out_of_range")
            index = key
        else:
            index = dec.find(key)  # type: ignore[arg-type]  # a str: an int took the branch above; its key, or a stable key's other spellings ('white_die@P2')
            if index is None:
                code, reason, words = self.action_menus.refusal_reason(st, str(key))
                raise IllegalChoice(reason, code=code, words=words)
        if len(st._log) + st.refused >= self.max_decisions:
            raise self.too_many_choices(st)
        value = dec.values[index]
        before = None
        if self.can_refuse:          # only packs that can refuse mid-effect pay for these copies
            before = st.clone()
            if dec.kind == "action":
                # choosing an action: a 'require' anywhere in it sends the player back here
                st.checkpoint = (before, len(st.frames), st.frames[-1])
        st._log.append([dec.player, index, dec])     # its key is made when the log is read
        st.pending = None
        st.answer = value if value != SKIP else SKIP
        try:
            self.run(st)
        except Refusal as err:
            if before is None:       # pragma: no cover - uses_require is set whenever require compiles
                raise
            cp = st.checkpoint
            inside = cp is not None and len(st.frames) >= cp[1] and st.frames[cp[1] - 1] is cp[2]
            made = len(st._log)
            st.restore(cp[0] if inside else before)
            st.checkpoint = None
            st.refused += made - len(st._log)     # the choices undone count on (a loop of refusals is bounded too)
            raise Refusal(err.message.split(" (in ", 1)[0], err.span, code=err.code) from None
        except RuleError as err:
            raise in_game(err, st) from None

