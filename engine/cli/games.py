"""Commands that play one game: ``play`` (humans and bots at the terminal) and
``replay`` (a logged game re-run, failing loudly where it diverges).

A human at the terminal sees what their own seat may see and nothing more:
another player's choice reads '(hidden)' unless their view shows it, and the
seed, from which every hidden card follows, is printed at the end.
"""
from __future__ import annotations

import sys
from typing import Any, Optional

import click

from meeple.cli import arguments
from meeple.cli.files import OutputFile, write_or_exit
from meeple.cli.group import ExitCode, fail, main
from meeple.core.errors import MeepleError, Refusal, RuleError
from meeple.runtime.flow import in_game
from meeple.runtime.game import Game


@main.command()
@click.argument("game_name", metavar="GAME")
@click.option("--players", "-p", type=int, required=True, help="number of players")
@click.option("--seed", type=arguments.SEEDS, default=None,
              help="random seed (default: a fresh one; printed at the end of a game with a human, at the start of a bots-only one)")
@click.option("--show-seed", is_flag=True, help="print the seed at the start even with a human playing (it predicts every hidden card)")
@click.option("--bots", default="human,random", show_default=True,
              help="agents per seat, comma-separated (random, human, greedy, mcts, mcts:200, mcts:50ms); "
                   "one name plays every seat; fewer names than seats: the others are random (as in simulate, compare)")
@click.option("--eval", "evaluation", default="", help="the bots' evaluation, an effect-language expression (default: the pack's)")
@click.option("--log", "log_path", type=OutputFile(), default=None, help="write the game log here (checked before the game starts)")
@click.option("--option", "option_pairs", multiple=True, metavar="NAME=VALUE", help="a rules option of the pack (repeatable)")
@click.option("--quiet", is_flag=True, help="only the final scores")
@click.option("--lang", default="en", show_default=True, help="locale of card names and texts on the board and with '?'")
def play(game_name: str, players: int, seed: Optional[int], show_seed: bool, bots: str, evaluation: str,
         log_path: Optional[str], option_pairs: tuple[str, ...], quiet: bool, lang: str) -> None:
    """Play a game in the terminal with humans and bots.

    A human reads another player's choice only when their own view shows what
    it was (else '(hidden)'); with a human playing, the seed, from which every
    hidden card follows, is printed at the end (--show-seed: at the start)."""
    from meeple.core.catalogue import say
    from meeple.play.session import make_log, write_log
    from meeple.play.terminal import TerminalView
    game = arguments.load(game_name)
    arguments.players(game, players)
    seed = arguments.seed(seed)
    agents = arguments.agents(game, bots, players, seed, evaluation)
    humans = [i for i, a in enumerate(agents) if a.name == "human"]
    options = arguments.options(game, option_pairs)
    seed_first = show_seed or not humans        # the seed predicts every hidden card: a human sees it at the end
    click.echo(say("{name} with {n} players", lang, name=game.pack.info.name.get(lang), n=players)
               + (say(", seed {seed}", lang, seed=seed) if seed_first else "") + "".join(f", {k}={v}" for k, v in options.items()))
    table = _Table(game, TerminalView(game, width=_width(), lang=lang), agents, humans, quiet)
    try:
        st = table.play(players, seed, options)
    except MeepleError as err:
        fail(err, ExitCode.CONTENT_INVALID)
    except (EOFError, click.Abort, KeyboardInterrupt) as stop:       # Ctrl-C, the end of input, SIGTERM
        _abandoned(game, table.st, seed, seed_first, log_path, arguments.logged_name(game_name), options, stop, lang)
    if not quiet:
        click.echo(table.view.board(st, table.watcher))        # the human's own last view, their hand too
    print_scores(game, st, lang, explained=not quiet)
    if not seed_first:
        click.echo(say("seed {seed}", lang, seed=seed))
    if log_path:
        write_or_exit(log_path, lambda: write_log(log_path, make_log(game, st, seed, arguments.logged_name(game_name), options)))
        click.echo(say("log written to {path}", lang, path=log_path))


def _abandoned(game: Game, st: Any, seed: int, seed_first: bool, log_path: Optional[str], pack_ref: str,
               options: dict[str, str], stop: BaseException, lang: str = "en") -> None:
    """A game left before its end (Ctrl-C or the end of input at a prompt, or SIGTERM):
    said with its seed, the log of the game so far written where one was asked for
    (marked unfinished; ``meeple replay`` replays it as far as it goes), and exit
    130 (143 for SIGTERM), as any interrupted command."""
    from meeple.cli.group import stop_code
    from meeple.core.catalogue import say
    from meeple.play.session import make_log, write_log
    from meeple.workbench.stops import stopped
    click.echo("\n" + say("game abandoned", lang) + ("" if seed_first else say(" (seed {seed})", lang, seed=seed)), err=True)
    if log_path and st is not None:
        write_or_exit(log_path, lambda: write_log(log_path, make_log(game, st, seed, pack_ref, options)))
        n = len(st.log)
        click.echo(say("the game so far ({n} choice, unfinished) written to {path}" if n == 1 else
                       "the game so far ({n} choices, unfinished) written to {path}", lang, n=n, path=log_path), err=True)
    code = stop_code(stop if isinstance(stop, KeyboardInterrupt) else stopped())
    if code != ExitCode.INTERRUPTED:          # SIGTERM: said last, as every command says it
        click.echo(str(stop), err=True)
    sys.exit(code)


class _Table:
    """One game at the terminal: the board once a round, where everyone stands
    between turns, what changed since a human last looked, and each choice as
    the humans watching may know it."""

    def __init__(self, game: Game, view: Any, agents: list, humans: list[int], quiet: bool) -> None:
        self.game, self.view, self.agents, self.humans, self.quiet = game, view, agents, humans, quiet
        self.watcher = humans[0] if len(humans) == 1 else None       # the one whose view the board shows
        self.st: Any = None
        self.last_round, self.last_turn = -1, -1
        self.seen: Optional[dict] = None           # what the human last saw of the board
        from meeple.play.agents import MenuNumbers
        self.menus = MenuNumbers()
        from meeple.play.narration import Narrator
        from meeple.play.lines import wrap_block
        # what each rule did, told to each human (``meeple.play.narration``)
        self.narrator = Narrator(view, humans) if humans and not quiet else None
        self.hidden_from: frozenset = frozenset()      # the humans who may not read the choice being applied
        self.undo_point: Any = None                    # a human's last action choice, to go back to ('undo')
        for h in humans:
            agents[h].helper = lambda answer, opts: view.help(answer, opts, self.st)
            agents[h].why = self._why
            agents[h].echo = lambda text: click.echo(wrap_block(text, view.width))     # option lines fit the terminal
            agents[h].ask = _ask
            agents[h].lang = view.lang
            agents[h].keys = view.keys_shown
            agents[h].undo = self._undo

    def _undo(self) -> Optional[str]:
        """'undo' typed at a human's prompt: their choices since their last action taken
        back (None), else why not, in the table's language (``meeple.play.undo``)."""
        from meeple.play.undo import take_back, why_not
        st, seat = self.st, self.st.pending.player
        reason = why_not(self.game, st, self.undo_point, seat, self.view.word)
        if reason is not None:
            return self.view.word("  cannot undo: {reason}", reason=reason)
        take_back(st, self.undo_point)
        self.undo_point = None
        if self.narrator is not None:
            self.narrator.forget()          # what the choices taken back did is told to no one
        click.echo(self.view.word("  P{p} took back the choices since their last action", p=seat + 1))
        return None

    def _why(self, key: str) -> Optional[str]:
        """Why an action typed by its key is not offered now, in the table's language
        (the engine's reason: ``refusal_reason``), or None for what names no action."""
        from meeple.core.errors import IllegalChoice
        from meeple.play.terminal import refused
        code, message, words = self.game.action_menus.refusal_reason(self.st, key)
        return None if code == "not_legal" else refused(self.view, IllegalChoice(message, code=code, words=words))

    def play(self, players: int, seed: int, options: dict[str, str]) -> Any:
        """The game played out; its final state."""
        from meeple.play.agents import UNDONE
        from meeple.play.undo import undo_point
        game, quiet = self.game, self.quiet
        self.st = st = game.new_state(players, seed, options=options)     # setup may already break a rule
        while not st.over:
            dec = st.pending
            agent = self.agents[dec.player]
            choices = self._before(dec, agent)
            index = self._choice(dec, agent, choices)
            if index == UNDONE:             # the human took back their choices since their last action
                continue
            marks = {} if quiet else self._told(dec, agent, index)
            point = undo_point(st) if agent.name == "human" and dec.kind == "action" else None
            try:
                if self.narrator is None:
                    game.apply(st, index)
                else:
                    self.narrator.apply(st, lambda: game.apply(st, index), self.hidden_from)
            except Refusal as err:          # a rule said no: the state is as it was, choose again
                from meeple.play.terminal import refused
                click.echo(self.view.word("  refused: {reason}", reason=refused(self.view, err)))
                continue
            if point is not None:
                self.undo_point = point
            if not quiet:       # a board variable the choice set (a piece marked, a seat robbed): said at once
                self._marked(marks)
            if st.events:                    # notes the rules wrote with 'log'
                if not quiet:
                    for note in st.events:
                        click.echo(self.view.wrap(f"    {self.view.pack_word(note)}", 6))
                st.events.clear()
        if not quiet and self.narrator is not None and self.watcher is not None:
            self._narrate(self.watcher)        # the last turns, the round's end and the final scoring
        return st

    def _before(self, dec: Any, agent: Any) -> Any:
        """What is shown before a choice (the board, the standing, what changed); the options offered."""
        st, view, quiet = self.st, self.view, self.quiet
        if not quiet and st.round != self.last_round:
            self.last_round = st.round
            if self.narrator is not None and self.watcher is not None:     # how the round ended and began, then the board
                self._narrate(self.watcher)
            click.echo(view.board(st, self.watcher))                  # the board once per round
            self.seen = view.snapshot(st, self.watcher)
        elif not quiet and dec.kind == "action" and dec.player != self.last_turn:
            click.echo(view.standing(st))      # between turns: where everyone stands
        if dec.kind == "action":
            self.last_turn = dec.player
        if agent.name == "human" and not quiet:
            self._narrate(dec.player)
            self.seen = view.snapshot(st, dec.player)
            return view.options(st, dec.player)
        return dec.options

    def _choice(self, dec: Any, agent: Any, choices: Any) -> int:
        """The agent's choice; a bot whose evaluation breaks is told with the game's seed and choice."""
        from meeple.play.session import observation
        obs = observation(self.game, self.st, agent, dec.player)
        if agent.name == "human" and "decision" in obs:        # numbered the same through a turn (MenuNumbers)
            obs["decision"] = dict(obs["decision"], prompt=self.view.prompt(dec.prompt), numbers=self.menus.numbers(dec))
        try:
            return agent.choose(obs, choices)
        except RuleError as err:
            raise in_game(err, self.st) from None

    def _told(self, dec: Any, agent: Any, index: int) -> dict:
        """Say the choice as the humans watching may know it; the board's marks before it."""
        from meeple.runtime.views import HIDDEN_CHOICE
        st, view = self.st, self.view
        who = view.word("you") if agent.name == "human" else view.word(agent.name)
        watching = [h for h in self.humans if h != dec.player]     # the humans who see this line
        told = self.game.observer.told(st, index, watching)
        if told != HIDDEN_CHOICE:
            told = view.label(st, index, view.localized(st, index, told), self.watcher)
        else:
            told = view.word(HIDDEN_CHOICE)
        click.echo(view.wrap(f"  P{dec.player + 1} ({who}) {view.prompt(dec.prompt)}: {told}", 6))
        # a choice made out of sight: what it did is told under no name that would tell it
        self.hidden_from = frozenset(watching) if told == view.word(HIDDEN_CHOICE) else frozenset()
        return view.marks(st)

    def _narrate(self, seat: int) -> None:
        """What each rule did since ``seat`` last looked, under the rule's name."""
        lines = self.narrator.take(seat, lead="    ") if self.narrator is not None else []
        if lines:
            click.echo(self.view.word("  since you last looked:"))
            click.echo("\n".join(lines))

    def _marked(self, marks: dict) -> None:
        """The board variables the choice set, said once (not again under 'since you last looked')."""
        now = {k: v for k, v in self.view.marks(self.st).items() if v[1] is not None}     # set, not cleared
        for line in self.view.changes({k: marks.get(k) for k in now}, now, lead="    "):
            click.echo(line)
        if self.narrator is not None:
            self.narrator.said({k for k in now if now[k] != marks.get(k)})
        if self.seen is not None:
            self.seen.update(now)


def _width() -> int:
    """The terminal's columns (COLUMNS, else the terminal's own), 100 when it does not say."""
    import shutil
    return shutil.get_terminal_size((100, 24)).columns


def print_scores(game: Game, st: Any, lang: str = "en", explained: bool = True) -> None:
    """The final scores, in ranking order, the winners marked, each explained by the parts
    of the final scoring that gave it (meeple.runtime.scoring; not with --quiet)."""
    from meeple.core.catalogue import say
    from meeple.play.lines import wrap
    from meeple.runtime.scoring import breakdown, player_text
    winners = game.winners(st)
    lines = breakdown(game, st)
    click.echo(say("final scores after {n} rounds:", lang, n=st.round))
    for place, p in enumerate(st.ranking, 1):
        mark = say("  winner", lang) if p in winners else ""
        click.echo(f"  {place}. P{p + 1}  {st.scores[p]}{mark}")
        why = player_text(lines, p, lang) if lines is not None and explained else ""
        if why:
            click.echo(wrap(f"       = {why}", _width(), 9))


@main.command()
@click.argument("log_file", metavar="LOG", type=click.Path(exists=True, dir_okay=False))
@click.option("--pack", "pack_ref", default=None,
              help="replay with this pack: needed when the log names no shipped pack; another than the logged one shows "
                   "whether a rules change alters the game")
@click.option("--steps", is_flag=True, help="show every choice")
def replay(log_file: str, pack_ref: Optional[str], steps: bool) -> None:
    """Re-run a logged game; fail loudly if anything diverges.

    The log's shape is checked first (see 'meeple schema log'): a broken log
    exits 1 naming each bad field. Without --pack, the log must name a shipped
    pack: a pack folder is loaded only when you name it.
    """
    from meeple.core.errors import IllegalChoice
    from meeple.runtime.logs import LogInvalid, read_log
    from meeple.play.session import ReplayDiverged, replay as do_replay

    def show(st: Any, option: Any) -> None:
        if steps:
            click.echo(f"  round {st.round}  P{st.pending.player + 1} {st.pending.prompt}: {option[1]}")
    try:
        try:
            log = read_log(log_file)
        except OSError as err:
            click.echo(f"error: cannot read {log_file}: {err.strerror or err}", err=True)
            sys.exit(ExitCode.USAGE)
        game = arguments.load(pack_ref) if pack_ref else arguments.logged_game(log["pack"], log_file)
        st = do_replay(game, log, show, checked=True, same_pack=not pack_ref)
    except LogInvalid as err:
        for e in err.errors:
            where = f"{log_file}:{e.span.line}:{e.span.col}" if e.span.line else log_file
            click.echo(f"{where}: error: {e.message}" + (f"; {e.hint}" if e.hint else ""), err=True)
        sys.exit(ExitCode.CONTENT_INVALID)
    except (ReplayDiverged, IllegalChoice) as err:      # the log no longer fits the game
        click.echo(f"replay diverged: {err.message}" + (f"; {err.hint}" if err.hint else ""), err=True)
        sys.exit(ExitCode.CONTENT_INVALID)
    except MeepleError as err:          # a rule error on the way: located, with the seed and choice
        fail(err, ExitCode.CONTENT_INVALID)
    n = len(log["choices"])
    click.echo(f"replayed {n} choice{'' if n == 1 else 's'} of {game.id} ({log['players']} players, seed {log['seed']}): identical"
               + ("" if st.over else f" (an unfinished game, left in round {st.round})"))
    if st.over:
        print_scores(game, st)


def _ask(prompt: str) -> str:
    """A human's answer. click.prompt turns any KeyboardInterrupt into its Abort, and a
    SIGTERM is one (meeple.workbench.stops.Terminated): that one goes on as itself, so a
    game waiting for a human ends 'terminated' (143), not 'interrupted' (130)."""
    from meeple.workbench.stops import stopped
    try:
        return click.prompt(prompt, type=str)
    except click.Abort:
        stop = stopped()            # Terminated, if a SIGTERM was what click took for an abort
        if stop is not None:
            raise stop from None
        raise
