"""``meeple tune``: which values of a pack's cards and constants make its objective
smallest (a fair first seat, cards of a zone winning alike, a target length...), searched with
Optuna, and confirmed on fresh games before anything is called an improvement.

- **Blocks of paired seeds.** A setting is played in blocks of ``block`` games; block
  *b* has the same seeds for every setting (``block_seed``), so two settings meet the
  same games, and a setting's figures on its blocks are exact: they are stored with
  the trial (its user attributes, one figure vector per block) and never played again.
  A setting asked for again (TPE may ask twice, a resumed study asks again for the one
  Ctrl-C stopped) is told its stored blocks and plays only the blocks it lacks.
- **The search.** Optuna's ask and tell. When the parameters have at most ``trials``
  settings together, every one is tried, in the order of the grid (each enqueued
  before it is asked for: Optuna's GridSampler counts a trial Ctrl-C stopped as
  visited, so a resumed study would skip it). Otherwise TPE, seeded afresh before
  each ask from the spec's seed and the number of trials finished, so that the trials
  are those of the same spec and seed whether or not the study was stopped and resumed.
- **Pruning.** After each block the block's objective is reported (step = block);
  Optuna's WilcoxonPruner compares it, block by block (the same games), with the best
  setting's, and stops a setting that is worse with p below ``prune``.
- **A setting's objective** is read from all its games together (its blocks' vectors
  added), with a 95% bootstrap interval over its blocks' parts (``interval``).
- **Confirmation.** The best ``candidates`` settings (other than the pack as written)
  are each compared with the pack as written (``meeple.workbench.compare``) on fresh
  seeds; the improvement (the objective as written minus the candidate's) gets a
  bootstrap interval over the pairs of games, resampled together, at 95% with a
  Bonferroni correction over the candidates. Only a candidate whose interval is above 0
  is reported as an improvement.
- **Storage.** An Optuna journal file beside the spec (``storage_path``); a study is
  named by the spec's content and seed, so a changed spec starts a study of its own.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import math
import random
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from meeple.runtime.game import Game, load_game
from meeple.workbench.simulate import SimConfig, ray_session, run
from meeple.workbench.tunespec import Figures, Spec, add_vectors

PARTS = 10               # each block is kept as this many parts, for the bootstrap
RESAMPLES = 400
CONFIRM_PARTS = 40       # the confirmation's pairs of games, in this many parts


class OptunaMissing(RuntimeError):
    """meeple tune needs the optional extra."""


def optuna_module():
    try:
        import optuna
        import scipy.stats  # noqa: F401  (the Wilcoxon pruner's test)
    except ImportError as err:
        raise OptunaMissing("meeple tune needs Optuna: pip install 'meeple[tune]'") from err
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    return optuna


def block_seed(seed: int, block: int) -> int:
    """The seed of a block of the search (below 500) or of the confirmation (500 on):
    the same for every setting; different specs' seeds never share one."""
    return seed * 1000 + block


CONFIRM_SEED = 999       # the confirmation's games: block_seed(seed, 999), never a search block's


def storage_path(spec_file: str) -> Path:
    """The study's journal, beside the spec: ``fair.yaml`` -> ``fair.tune-journal``."""
    p = Path(spec_file)
    return p.with_name(p.stem + ".tune-journal")


def study_name(spec: Spec) -> str:
    text = json.dumps([spec.data, spec.seed], sort_keys=True, default=str)
    return "tune-" + hashlib.sha256(text.encode()).hexdigest()[:12]


@dataclass
class Trial:
    """One setting tried: its values, its blocks' vectors (each as PARTS parts), its state."""
    number: int
    values: tuple
    parts: list = field(default_factory=list)     # per block, its parts' vectors
    state: str = "complete"                       # complete, pruned
    cached: int = 0                               # blocks taken from an earlier trial of the same setting

    def vector(self) -> list:
        return add_vectors(p for block in self.parts for p in block)


class Tuner:
    """A study of one spec: ``search`` then ``confirm``."""

    def __init__(self, spec: Spec, game: Game, workers: int = 1, backend: str = "local", address: str = "",
                 progress: Optional[Callable[[str], None]] = None, storage: Optional[str] = None):
        self.optuna = optuna_module()
        self.spec, self.game = spec, game
        self.figures = Figures(spec, game)
        self.workers, self.backend, self.address = workers, backend, address
        self.say = progress or (lambda text: None)
        self.games: dict[tuple, Game] = {}
        self.storage_file = storage or str(storage_path(spec.file))
        self.played = 0
        self.study = self._study()

    # ------------------------------------------------------------ the study
    def _study(self):
        optuna = self.optuna
        from optuna.storages import JournalStorage
        from optuna.storages.journal import JournalFileBackend
        storage = JournalStorage(JournalFileBackend(self.storage_file))
        pruner = optuna.pruners.WilcoxonPruner(p_threshold=self.spec.prune) if self.spec.prune > 0 else optuna.pruners.NopPruner()
        study = optuna.create_study(storage=storage, study_name=study_name(self.spec), direction="minimize",
                                    pruner=pruner, sampler=self._sampler(0), load_if_exists=True)
        for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING, optuna.trial.TrialState.WAITING)):
            study.tell(t.number, state=optuna.trial.TrialState.FAIL)      # stopped by Ctrl-C or a kill: its blocks stay cached
        return study

    def _sampler(self, finished: int):
        """TPE seeded from the spec's seed and the trials finished (see the module's doc)."""
        seed = (self.spec.seed * 1_000_003 + finished) % 2 ** 32
        return self.optuna.samplers.TPESampler(seed=seed, n_startup_trials=min(10, max(2, self.spec.trials // 4)),
                                               constant_liar=False)

    def finished(self) -> list:
        TS = self.optuna.trial.TrialState
        return self.study.get_trials(deepcopy=False, states=(TS.COMPLETE, TS.PRUNED))

    def search(self) -> list[Trial]:
        """Run trials until the budget is spent; the trials, in order (Ctrl-C: KeyboardInterrupt,
        the trial stopped marked failed, its blocks kept)."""
        grid = self.spec.grid()
        budget = len(grid) if grid is not None else self.spec.trials
        while len(self.finished()) < budget:
            done = len(self.finished())
            if grid is not None:
                self.study.enqueue_trial(self._params(grid[done]))
            self.study.sampler = self._sampler(done)
            trial = self.study.ask()
            try:
                self._run_trial(trial)
            except BaseException:
                self.study.tell(trial, state=self.optuna.trial.TrialState.FAIL)
                raise
        return self.trials()

    def _params(self, values: tuple) -> dict:
        return {p.name: v for p, v in zip(self.spec.parameters, values)}

    def _suggest(self, trial) -> tuple:
        out = []
        for p in self.spec.parameters:
            if p.choices:
                out.append(trial.suggest_categorical(p.name, list(p.choices)))
            elif p.integer:
                out.append(trial.suggest_int(p.name, int(p.low), int(p.high), step=int(p.step or 1)))
            else:
                out.append(trial.suggest_float(p.name, float(p.low), float(p.high), step=p.step))
        return tuple(out)

    def _run_trial(self, trial) -> None:
        values = self._suggest(trial)
        cached = self._cached(values)
        TS = self.optuna.trial.TrialState
        trial.set_user_attr("cached", len(cached))
        shown = ", ".join(f"{p.name}={v}" for p, v in zip(self.spec.parameters, values))
        played: list = []
        for b in range(self.spec.blocks):
            if b < len(cached):
                parts = cached[b]
            else:
                self.say(f"trial {trial.number}: {shown}, block {b + 1} of at most {self.spec.blocks}")
                parts = self._play_block(values, b)
            trial.set_user_attr(f"block{b}", parts)
            played.append(parts)
            trial.report(self.figures.objective(add_vectors(parts)), b)
            if trial.should_prune():
                self.study.tell(trial, state=TS.PRUNED)
                return
        self.study.tell(trial, self.figures.objective(add_vectors(p for parts in played for p in parts)))

    def _blocks_of(self, trial) -> list:
        attrs = trial.user_attrs
        return [attrs[f"block{b}"] for b in range(self.spec.blocks) if f"block{b}" in attrs]

    def _cached(self, values: tuple) -> list:
        """The most blocks any earlier trial of this setting played (any state: a failed one
        was stopped, and its blocks are as exact as the others)."""
        best: list = []
        for t in self.study.get_trials(deepcopy=False):
            if t.params and self._values(t) == values:
                blocks = self._blocks_of(t)
                if len(blocks) > len(best):
                    best = blocks
        return best

    def _values(self, t) -> tuple:
        return tuple(t.params.get(p.name) for p in self.spec.parameters)

    def _game(self, sets: tuple) -> Game:
        if sets not in self.games:
            self.games[sets] = load_game(self.spec.pack, sets)
        return self.games[sets]

    def config(self, sets: tuple, seed: int, games: int) -> SimConfig:
        s = self.spec
        return SimConfig(s.pack, games, s.players, seed, self.workers, s.bots, s.options, s.evaluation, sets,
                         self.backend, self.address)

    def _play_block(self, values: tuple, b: int) -> list:
        """Block ``b`` of a setting: its PARTS parts' figure vectors."""
        sets = self.spec.sets(values)
        cfg = self.config(sets, block_seed(self.spec.seed, b), self.spec.block)
        parts = [self.figures.empty() for _ in range(min(PARTS, self.spec.block))]
        for o in run(cfg, game=self._game(sets)):
            self.figures.add(parts[o.index * len(parts) // self.spec.block], o)
            self.played += 1
        return parts

    # ------------------------------------------------------------ reading the study
    def trials(self) -> list[Trial]:
        TS = self.optuna.trial.TrialState
        out = []
        for t in self.finished():
            out.append(Trial(t.number, self._values(t), self._blocks_of(t), "pruned" if t.state == TS.PRUNED else "complete",
                             t.user_attrs.get("cached", 0)))
        return sorted(out, key=lambda t: t.number)

    def interval(self, parts: list) -> tuple[float, float]:
        """A 95% bootstrap interval of the objective over these parts (resampled with replacement)."""
        if len(parts) < 2:
            v = self.figures.objective(add_vectors(parts))
            return (v, v)
        rng = random.Random(self.spec.seed)
        stats = sorted(self.figures.objective(add_vectors(rng.choice(parts) for _ in parts)) for _ in range(RESAMPLES))
        return (stats[int(0.025 * RESAMPLES)], stats[int(0.975 * RESAMPLES) - 1])

    def candidates(self, trials: list[Trial]) -> list[Trial]:
        """The best complete settings, other than the pack as written, best first."""
        written = self.spec.written()
        done = [t for t in trials if t.state == "complete" and t.values != written]
        seen: dict[tuple, Trial] = {}
        for t in sorted(done, key=lambda t: (self.figures.objective(t.vector()), t.number)):
            seen.setdefault(t.values, t)
        return list(seen.values())[:self.spec.candidates]

    # ------------------------------------------------------------ confirmation
    def confirm(self, candidates: list[Trial]) -> list[dict]:
        """Each candidate against the pack as written on fresh games: the compare table, and
        the improvement of the objective with its interval (see the module's doc)."""
        from meeple.workbench.compare import compare
        out = []
        level = 0.05 / max(1, len(candidates))
        games = self.spec.confirm_games
        seed = block_seed(self.spec.seed, CONFIRM_SEED)
        base_game = self._game(())
        for c in candidates:
            sets = self.spec.sets(c.values)
            self.say(f"confirming {', '.join(sets)} on {games} fresh games against the pack as written")
            nparts = min(CONFIRM_PARTS, games)
            parts = [[self.figures.empty() for _ in range(nparts)] for _ in range(2)]

            def each(a, b, parts=parts, nparts=nparts) -> None:
                k = a.index * nparts // games
                self.figures.add(parts[0][k], a)
                self.figures.add(parts[1][k], b)
            result = compare(self.config((), seed, games), self.config(sets, seed, games), games=(base_game, self._game(sets)),
                             each=each)
            self.played += 2 * result["games"]
            out.append(self._verdict(c, sets, parts, result, level))
        return out

    def _verdict(self, c: Trial, sets: tuple, parts: list, result: dict, level: float) -> dict:
        f = self.figures
        used = [k for k in range(len(parts[0])) if parts[0][k][0]]        # parts with games (all, unless stopped)
        base_parts, cand_parts = [parts[0][k] for k in used], [parts[1][k] for k in used]
        before, after = f.objective(add_vectors(base_parts)), f.objective(add_vectors(cand_parts))
        rng = random.Random(self.spec.seed)
        diffs = []
        for _ in range(RESAMPLES):
            pick = [rng.choice(used) for _ in used]
            diffs.append(f.objective(add_vectors(parts[0][k] for k in pick)) - f.objective(add_vectors(parts[1][k] for k in pick)))
        diffs.sort()
        lo = diffs[max(0, int(level / 2 * RESAMPLES))]
        hi = diffs[min(RESAMPLES - 1, int((1 - level / 2) * RESAMPLES) - 1)]
        return {"values": dict(zip((p.name for p in self.spec.parameters), c.values)), "sets": list(sets), "trial": c.number,
                "games": result["games"], "as_written": before, "candidate": after, "improvement": before - after,
                "ci": [lo, hi], "level": 1 - level, "supported": lo > 0 and not result.get("interrupted"),
                # the comparison's figures (not its time: the same spec and seed give the same report)
                "compare": {k: v for k, v in result.items() if k not in ("summaries", "seconds")}}


def tune(tuner: Tuner, confirm: bool = True) -> dict:
    """The whole run: the search, then the confirmation; the report's data."""
    start = time.perf_counter()
    # with the Ray backend, one Ray for the whole run: each block of games would start and stop its own
    with ray_session(tuner.workers, tuner.address) if tuner.backend == "ray" else contextlib.nullcontext():
        trials = tuner.search()
        candidates = tuner.candidates(trials)
        confirmations = tuner.confirm(candidates) if confirm else []
    return report_data(tuner, trials, confirmations, time.perf_counter() - start)


def report_data(tuner: Tuner, trials: list[Trial], confirmations: list[dict], seconds: float, interrupted: bool = False) -> dict:
    spec, f = tuner.spec, tuner.figures
    names = [p.name for p in spec.parameters]
    rows = []
    for t in trials:
        parts = [p for block in t.parts for p in block]
        value = f.objective(add_vectors(parts)) if parts else math.nan
        lo, hi = tuner.interval(parts) if parts else (math.nan, math.nan)
        rows.append({"trial": t.number, "values": dict(zip(names, t.values)), "objective": value, "ci": [lo, hi],
                     "blocks": len(t.parts), "games": len(t.parts) * spec.block, "state": t.state, "cached_blocks": t.cached,
                     "as_written": t.values == spec.written()})
    supported = [c for c in confirmations if c["supported"]]
    chosen = min(supported, key=lambda c: c["candidate"]) if supported else None
    return {"spec": spec.file, "pack": spec.pack, "players": spec.players, "bots": spec.bots, "seed": spec.seed,
            "parameters": [{"name": p.name, "as_written": p.written, "values": list(p.grid() or ()) or None,
                            "low": None if p.choices else p.low, "high": None if p.choices else p.high} for p in spec.parameters],
            "objective": [t.describe(spec.players) for t in spec.terms], "search": "grid" if spec.grid() is not None else "tpe",
            "block": spec.block, "blocks": spec.blocks, "trials": rows, "by_parameter": by_parameter(names, rows),
            "confirmations": confirmations, "chosen": chosen, "games_played": tuner.played, "seconds": round(seconds, 2),
            "storage": tuner.storage_file, **({"interrupted": True} if interrupted else {})}


def by_parameter(names: list[str], rows: list[dict]) -> dict:
    """The objective against each parameter's values: per value, how many trials had it
    (complete ones, all), the best objective of any of them (a pruned one's on the blocks
    it played) and the mean of the complete ones."""
    out: dict[str, list[dict]] = {}
    for name in names:
        groups: dict[str, tuple] = {}
        for r in rows:
            v = r["values"][name]
            groups.setdefault(json.dumps(v), (v, []))[1].append(r)
        table = []
        for v, rs in sorted(groups.values(), key=lambda g: (isinstance(g[0], str), g[0])):
            complete = [r["objective"] for r in rs if r["state"] == "complete"]
            table.append({"value": v, "trials": len(rs), "complete": len(complete), "best": min(r["objective"] for r in rs),
                          "mean": sum(complete) / len(complete) if complete else None})
        out[name] = table
    return out


def partial(tuner: Tuner, seconds: float) -> dict:
    """What a stopped run found: its finished trials, no confirmation."""
    return report_data(tuner, tuner.trials(), [], seconds, interrupted=True)

