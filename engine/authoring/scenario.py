"""Rules scenarios: a pack, a player count, a seed, an optional starting
state, a list of choices and expectations written in the effect language.

This is the format designers and modders pin rules down with, and the one
the project's own rules tests use. Every failure names the scenario file,
line and column of the step that failed.
"""
from __future__ import annotations

import time
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

from meeple.dsl.runtime import Frame
from meeple.dsl.errors import RuleFault
from meeple.dsl.types import RULE_FAULTS, STEP_BUDGET
from meeple.dsl.typesys import PLAYER, Card, List, Type, Zone

from meeple.core.errors import UNKNOWN, ContentError, IllegalChoice, MeepleError, PackInvalid, RuleError, Span, location, suggest
from meeple.runtime.game import Game, load_game
from meeple.core.outputs import open_regular
from meeple.loading.schemas import validate
from meeple.runtime.state import State
from meeple.loading.yamlsrc import Document, load_yaml
from meeple.authoring.starts import Start
from meeple.authoring.expectations import Expectation, ScenarioFailure


@dataclass
class Result:
    file: str
    name: str
    span: Span            # where it failed (the failing step), or the scenario's name when it passed
    ok: bool
    message: str = ""
    scenario: Span = UNKNOWN   # the scenario's name, where it starts
    seconds: float = 0.0


def _said(err: MeepleError) -> str:
    """An error's message with its hint (a did-you-mean), as a scenario result shows it."""
    hint = getattr(err, "hint", None)
    return f"{err.message}; {hint}" if hint else err.message


_games: dict[str, Game] = {}


def _game_for(ref: str, base: Path) -> Game:
    candidate = (base / ref)
    key = str(candidate.resolve()) if (candidate / "pack.yaml").is_file() else ref
    if key not in _games:
        _games[key] = load_game(str(candidate) if (candidate / "pack.yaml").is_file() else ref)
    return _games[key]


_REMEMBER = re.compile(r"\s*([a-z_][a-z0-9_]*)\s*=(?!=)(.*)", re.S)


def run_file(path: Path, game: Optional[Game] = None, trace: Optional[Callable[[str], None]] = None) -> list[Result]:
    """Run every scenario of a file, against the pack it names or against ``game``
    (``meeple test --pack``: a modified copy of the pack, an expansion). ``trace`` is
    told the pending decision at every step (``meeple test --trace``)."""
    return list(iter_file(path, game, trace))


def iter_file(path: Path, game: Optional[Game] = None, trace: Optional[Callable[[str], None]] = None) -> Iterator[Result]:
    """``run_file``, one result at a time, as each scenario ends."""
    display = str(path)
    try:
        doc = load_yaml(path, display)
    except ContentError as err:
        yield Result(display, "(file)", err.span, False, _said(err))
        return
    errs = list(validate(doc, "scenario"))
    if errs:
        yield from (Result(display, "(file)", e.span, False, _said(e)) for e in errs)
        return
    data = doc.data
    try:
        game = game or _game_for(str(data["pack"]), path.parent)
    except PackInvalid as err:
        first = err.problems.errors[0]
        yield Result(display, "(file)", doc.span(("pack",)), False, f"pack does not load: {location(first.span)}: {_said(first)}")
        return
    except MeepleError as err:
        yield Result(display, "(file)", doc.span(("pack",)), False, _said(err))
        return
    for i, sc in enumerate(data["scenarios"]):
        span = doc.span(("scenarios", i, "name"))
        began = time.perf_counter()
        if trace:
            trace(f"{location(span)}: {sc['name']}")
        try:
            _Run(game, doc, ("scenarios", i), sc, data, trace).run()
            yield Result(display, sc["name"], span, True, scenario=span, seconds=time.perf_counter() - began)
        except MeepleError as err:
            yield Result(display, sc["name"], err.span if err.span.line else span, False, _said(err),
                         scenario=span, seconds=time.perf_counter() - began)


def _refusal(err: IllegalChoice) -> str:
    return f"{err.message} [{err.code}]" if err.code else err.message


class _Run:
    """One scenario, step by step."""

    def __init__(self, game: Game, doc: Document, path: tuple, sc: dict, top: dict, trace):
        self.game, self.doc, self.path, self.sc, self.top, self.trace = game, doc, path, sc, top, trace
        self.memory: dict[str, tuple[Any, Type]] = {}       # remember NAME = EXPR: (value, type)

    def fail(self, message: str, path: tuple, hint: Optional[str] = None) -> ScenarioFailure:
        return ScenarioFailure(message, self.doc.span(path), hint)

    def run(self) -> None:
        game, doc, path, sc, top = self.game, self.doc, self.path, self.sc, self.top
        players = sc.get("players", top.get("players", game.min_players))
        seed = sc.get("seed", top.get("seed", 0))
        spec = sc.get("start") or {}
        start = Start(game, doc, path + ("start",), spec) if spec else None
        options = {**(top.get("options") or {}), **(sc.get("options") or {})}
        skip = "round" in spec or "phase" in spec
        target, phase = spec.get("round", 1), spec.get("phase")
        if phase is not None:
            self.check_phase(phase, path + ("start", "phase"))
        try:
            # with a phase the arrangements wait for its first decision; with a round only, they are
            # applied when the round begins (a no-op marks that moment when there are none)
            st = game.new_state(players, seed, prepare=None if phase else (start or (lambda st: None)),
                                options=options, prepare_round=target)
        except IllegalChoice as err:
            raise ScenarioFailure(err.message, doc.span(path + ("options",)) if "options" in sc else doc.span(("options",)), err.hint) from None
        if skip:
            self.skip(st, spec, seed, target, phase, start, path + ("start",))
        for j, step in enumerate(sc["steps"]):
            self.step(st, step, path + ("steps", j))

    def check_phase(self, phase: str, ppath: tuple) -> None:
        known = self.phases()
        if phase not in known:
            raise self.fail(f"no procedure or action group '{phase}' to start at", ppath, suggest(phase, sorted(known)))

    def phases(self) -> set:
        """What ``start: {phase: NAME}`` can name: the pack's procedures and action groups."""
        g = self.game
        return {c.name.split(" ", 1)[1] for c in g.codes if c.name.startswith("procedure ")} | set(g.vocab.action_groups)

    def in_phase(self, st: State, phase: str) -> bool:
        """The pending decision is asked while procedure ``phase`` runs, or is a menu of
        action group ``phase`` (``play actions phase``)."""
        g, dec = self.game, st.pending
        if any(f.code >= 0 and g.codes[f.code].name == f"procedure {phase}" for f in st.frames):
            return True
        return dec.kind == "action" and bool(dec.values) and g.actions[dec.values[0][0]].group == phase

    def skip(self, st: State, spec: dict, seed: int, target: int, phase: Optional[str], start: Optional[Start], spath: tuple) -> None:
        """``start: {round: N, phase: NAME, choices: first|random}``: the choices before that
        point are made for the players (the first option offered, the next if it is refused; or
        one drawn with the scenario's seed, apart from the game's own randomness)."""
        from meeple.core.rng import next_u64, seed_state
        game, how = self.game, spec.get("choices", "first")
        rng = seed_state(seed)
        where = f"round {target}" + (f", phase {phase}" if phase else "")

        def reached() -> bool:
            if phase is None:
                return st.prepare is None          # the round began: the arrangements are in
            return st.round == target and st.pending is not None and self.in_phase(st, phase)

        made = 0
        while not reached():
            if st.over:
                raise self.fail(f"the game ended in round {st.round} before {where} was reached "
                                f"({made} choices made by '{how}')", spath + (("phase",) if phase and st.round >= target else ("round",)))
            if phase is not None and st.round > target:
                raise self.fail(f"round {target} ended without a decision in phase '{phase}' ({made} choices made by '{how}')",
                                spath + ("phase",))
            dec = st.pending
            order = list(range(dec.count()))
            if how == "random" and order:
                rng, draw = next_u64(rng)
                first = draw % len(order)
                order = order[first:first + 1] + order[:first] + order[first + 1:]
            now = st.round
            for i in order:
                key = dec.key(i)
                try:
                    game.apply(st, i)
                except IllegalChoice:
                    continue
                made += 1
                if self.trace:
                    self.trace(f"  {location(self.doc.span(spath))}: {self.pending_of(dec)}: {', '.join(dec.keys())} -> {key} "
                               f"(start: {how}, round {now})")
                break
            else:
                raise self.fail(f"every option was refused to P{dec.player + 1} ({dec.prompt}) before {where}", spath)
        if phase is not None and start is not None:
            start(st)
            game.rules.repose(st)          # the decision is offered again, from the arranged state

    def pending(self, st: State) -> str:
        return self.pending_of(st.pending)

    @staticmethod
    def pending_of(dec) -> str:
        return f"P{dec.player + 1} is to choose ({dec.prompt})" if dec else "the game is over"

    def step(self, st: State, step: dict, spath: tuple) -> None:
        game, doc = self.game, self.doc
        if "arrange" in step:
            Start(game, doc, spath + ("arrange",), step["arrange"] or {})(st)
            if st.pending is not None:
                game.rules.repose(st)          # the pending choice is offered again, from the arranged state
        if "choose" in step:
            self.choose(st, step, spath)
        elif self.trace:
            self.trace(f"  {location(doc.span(spath))}: {self.pending(st)}" + (f": {', '.join(st.pending.keys())}" if st.pending else ""))
        if "by" in step and "choose" not in step:
            if isinstance(step["by"], list):
                raise self.fail("a list of players needs a list of choices", spath + ("by",))
            if st.pending is None or st.pending.player != step["by"] - 1:
                raise self.fail(f"{self.pending(st)}, not P{step['by']}", spath + ("by",))
        for what in ("offered", "not_offered"):
            if what in step:
                if st.pending is None:
                    raise self.fail(f"'{what}': no decision is pending (the game is over)", spath + (what,))
                keys = st.pending.keys()
                wrong = [str(k) for k in step[what] if bool(st.pending.matches(str(k))) != (what == "offered")]
                if wrong:
                    verb = "not offered" if what == "offered" else "offered"
                    hint = "; ".join(h for h in (suggest(k, keys) for k in wrong) if h) if what == "offered" else None
                    raise self.fail(f"{', '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} {verb}; the options are: {', '.join(keys)}",
                                    spath + (what,), hint or None)
        if "game_over" in step:
            if step["game_over"] and not st.over:
                raise self.fail(f"expected the game to be over, but {self.pending(st)}", spath + ("game_over",))
            if not step["game_over"] and st.over:
                raise self.fail(f"expected the game to go on, but it is over (ranking {[p + 1 for p in st.ranking]}, scores {st.scores})",
                                spath + ("game_over",))
        for what in ("ranking", "winners"):
            if what in step:
                if not st.over:
                    raise self.fail(f"expected the game to be over for '{what}', but {self.pending(st)}", spath + (what,))
                got = [p + 1 for p in (st.ranking if what == "ranking" else game.winners(st))]
                if got != list(step[what]):
                    raise self.fail(f"{what} is {got}, expected {list(step[what])} (scores {st.scores})", spath + (what,))
        for k, text, epath in self.texts(step, "expect", spath):
            self.expect(st, text, epath)
        for k, text, rpath in self.texts(step, "remember", spath):
            self.remember(st, text, rpath)

    @staticmethod
    def texts(step: dict, key: str, spath: tuple):
        if key not in step:
            return []
        one = not isinstance(step[key], list)
        items = [step[key]] if one else step[key]
        return [(k, text, spath + (key,) + (() if one else (k,))) for k, text in enumerate(items)]

    def choose(self, st: State, step: dict, spath: tuple) -> None:
        game, doc = self.game, self.doc
        one = not isinstance(step["choose"], list)
        wants = [step["choose"]] if one else step["choose"]
        by = step.get("by")
        if isinstance(by, list) and len(by) != len(wants):
            raise self.fail(f"'by' lists {len(by)} player(s) for {len(wants)} choice(s): give one per choice", spath + ("by",))
        for k, want in enumerate(wants):
            want = str(want)
            cpath = spath + ("choose",) + (() if one else (k,))
            dec = st.pending
            if self.trace:
                self.trace(f"  {location(doc.span(cpath))}: {self.pending(st)}" + (f": {', '.join(dec.keys())} -> {want}" if dec else ""))
            if dec is None:
                raise self.fail(f"cannot choose '{want}': the game is over", cpath)
            seat = by[k] if isinstance(by, list) else (by if k == 0 else None)
            if seat is not None and dec.player != seat - 1:
                raise self.fail(f"P{dec.player + 1} is to choose ({dec.prompt}), not P{seat}",
                                spath + ("by",) + ((k,) if isinstance(by, list) else ()))
            if "refused" in step:
                expected = str(step["refused"])
                before = st.to_json()
                try:
                    game.apply(st, want)
                except IllegalChoice as err:
                    if expected != err.code and expected not in err.message:
                        raise self.fail(f"'{want}' was refused, but with: {_refusal(err)}", spath + ("refused",))
                    if st.to_json() != before:
                        raise self.fail(f"refusing '{want}' changed the state", cpath)
                    continue
                raise self.fail(f"'{want}' was accepted, expected a refusal ({expected})", cpath)
            try:
                game.apply(st, want)
            except IllegalChoice as err:
                raise self.fail(f"'{want}' refused ({dec.prompt}, P{dec.player + 1}): {_refusal(err)}", cpath) from None

    def compile(self, text: str, path: tuple, truth: bool) -> Expectation:
        try:
            return Expectation(self.game, self.doc, path, text, self.memory, truth)
        except ScenarioFailure:
            raise
        except MeepleError as err:
            if not err.span.line:
                err.span = self.doc.span(path)
            raise

    def evaluate(self, st: State, ex: Expectation, fn, fr: Frame, path: tuple) -> Any:
        st.budget = STEP_BUDGET          # an expectation has a step budget of its own (meeple.dsl.types.charge)
        try:
            return fn(st, fr)
        except (RuleError, *RULE_FAULTS) as exc:     # the expression itself breaks a rule: its own failure
            from meeple.dsl.errors import in_words
            from meeple.dsl.faults import explain_expression      # the error path only
            told = None
            if not isinstance(exc, RuleError) or isinstance(exc, RuleFault):    # said in the language's words
                told = explain_expression(self.game.vocab, ex.src, ex.tree, ex.names, ex.nbase, exc, st, fr)
            why = told[0] if told else exc.message if isinstance(exc, RuleError) else in_words(exc)
            failure = self.fail(f"expectation cannot be evaluated: {ex.text}: {why}", path)
            if told:
                failure.span = told[1]
            raise failure from None

    def expect(self, st: State, text: str, epath: tuple) -> None:
        ex = self.compile(text, epath, True)
        fr = ex.frame(st)
        if self.evaluate(st, ex, ex.fn, fr, epath):
            return
        detail = ""
        if ex.sides:
            (left, lt), (right, rt) = ex.sides
            detail = (f" (left side is {_show(self.game, st, self.evaluate(st, ex, left, fr, epath), lt)}, "
                      f"right side is {_show(self.game, st, self.evaluate(st, ex, right, fr, epath), rt)})")
        elif ex.culprit:
            var, (find, t) = ex.culprit
            item = self.evaluate(st, ex, find, fr, epath)
            if item is not None:
                detail = f" (it fails for {var} = {_show(self.game, st, item, t)})"
        raise self.fail(f"expectation failed: {ex.text}{detail}", epath)

    def remember(self, st: State, text: str, rpath: tuple) -> None:
        m = _REMEMBER.fullmatch(str(text))
        if m is None:
            raise self.fail(f"write 'remember: NAME = EXPRESSION', not {str(text).strip()!r}", rpath)
        name = m.group(1)
        expr = " " * m.start(2) + m.group(2)          # the expression where it stands, for the columns of its errors
        g = self.game
        if name in g.vocab.known_names() or name in g.vocab.card_index:
            raise self.fail(f"'{name}' is a name of the pack already: remember the value under another name", rpath)
        ex = self.compile(expr, rpath, False)
        value = self.evaluate(st, ex, ex.fn, ex.frame(st), rpath)
        t = ex.type
        if isinstance(t, Zone):                       # a zone is remembered as the cards in it now
            value, t = list(st.zones[value]), List(t.elem())
        elif isinstance(value, list):
            value = list(value)
        self.memory[name] = (value, t)


def _show(game: Game, st: State, v: Any, t: Type) -> str:
    """A side of a failed comparison as the scenario's author wrote it: players as P1.., cards by id."""
    if v is None:
        return "none"
    if t == PLAYER:
        return f"P{v + 1}"
    if isinstance(t, Card):
        return game.vocab.card_def_ids[v]
    if isinstance(t, List) and isinstance(t.elem(), Card):
        return "[" + ", ".join(game.vocab.card_def_ids[c] for c in v) + "]"
    if isinstance(t, Zone):
        return "[" + ", ".join(game.vocab.card_def_ids[c] for c in st.zones[v]) + "]"
    return repr(v)


def collect(paths: list[str]) -> list[Path]:
    out = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            for f in sorted(path.rglob("*.yaml")):
                if not f.is_file():
                    continue            # a folder, a device, a pipe: nothing to read (a pipe would never end)
                try:
                    with open_regular(f) as stream:     # the head only, however big the file
                        head = stream.read(2000).decode("utf-8", "ignore")
                except OSError:
                    continue
                if "kind: scenario" in head:
                    out.append(f)
        else:
            out.append(path)
    return out


# ---------------------------------------------------------------- reports for CI
def as_json(results: list[Result], pack: Optional[str] = None) -> dict:
    """``meeple test --format json``: one entry per scenario (a file that cannot be run is
    one entry named '(file)'); a failure carries the location of the step that failed."""
    return {
        "pack": pack,
        "passed": sum(r.ok for r in results),
        "failed": sum(not r.ok for r in results),
        "scenarios": [{
            "file": r.file,
            "name": r.name,
            "line": (r.scenario if r.scenario.line else r.span).line,
            "passed": r.ok,
            "seconds": round(r.seconds, 4),
            "failure": None if r.ok else {"file": r.span.file, "line": r.span.line, "col": r.span.col,
                                          "message": f"{location(r.span)}: {r.message}"},
        } for r in results],
    }


def as_junit(results: list[Result], pack: Optional[str] = None) -> str:
    """``meeple test --format junit``: JUnit XML as CI systems read it, one test suite
    per scenario file and one test case per scenario."""
    import xml.etree.ElementTree as ET
    root = ET.Element("testsuites", name="meeple test" + (f" --pack {pack}" if pack else ""),
                      tests=str(len(results)), failures=str(sum(not r.ok for r in results)),
                      time=f"{sum(r.seconds for r in results):.3f}")
    suites: dict[str, ET.Element] = {}
    for r in results:
        suite = suites.get(r.file)
        if suite is None:
            mine = [x for x in results if x.file == r.file]
            suite = suites[r.file] = ET.SubElement(root, "testsuite", name=r.file, tests=str(len(mine)),
                                                   failures=str(sum(not x.ok for x in mine)),
                                                   time=f"{sum(x.seconds for x in mine):.3f}")
        case = ET.SubElement(suite, "testcase", name=r.name, classname=r.file, file=r.file,
                             line=str((r.scenario if r.scenario.line else r.span).line), time=f"{r.seconds:.3f}")
        if not r.ok:
            failure = ET.SubElement(case, "failure", message=r.message, type="ScenarioFailure")
            failure.text = f"{location(r.span)}: {r.message}"
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True)
