"""Golden playthroughs: one stored random game per shipped pack and player count.

Why: the execution engine is going to be rewritten for speed, and a rewrite
must not change a single decision of any game. A stored game (seed, every
choice, the final state's hash) pins the behaviour down exactly; replaying it
after a change says at which decision, if any, the game went another way.

This module holds the only copy of the playing, recording and comparing
logic; ``tests/test_golden.py`` and ``tools/golden.py`` (``--write`` and
``--check``) both use it. A game is played exactly as ``benchmarks/bench.py``
plays one: ``random.Random(seed).randrange(len(st.pending.options))`` applied
by index with ``game.apply``.
"""
from __future__ import annotations

import functools
import hashlib
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from meeple.runtime.game import Game, load_game
from meeple.loading.folders import shipped_packs
from meeple.runtime.state import State

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
FORMAT = 1
STEP_LIMIT = 20_000          # a golden game longer than this is a hung game
REGENERATE = ("If this change of behaviour is intended (a rule or content change), regenerate the golden games "
              "on purpose with `python tools/golden.py --write` and commit tests/golden/ with the change; "
              "if it is not (an engine rewrite or refactoring), the change is a bug.")

# Games played with options besides the defaults, so that rules only an
# option reaches are pinned too: (players, seed, options) per pack.
VARIANTS: dict[str, list[tuple[int, int, dict[str, Any]]]] = {
    "citadels": [(7, 107, {"warlord_own_city": True, "last_picker_takes_face_down": True,
                           "haunted_city_not_last_round": True})],
    "citadels-2016": [(5, 105, {**{f"rank{r}": 2 for r in range(1, 9)}, "rank9": 3}),
                      (6, 106, {f"rank{r}": 1 for r in range(1, 10)}),
                      (4, 104, {"random_characters": True, "random_uniques": True}),
                      (8, 108, {"warlord_own_city": True, "last_picker_takes_face_down": True})],
    "citadels-dark-city": [(5, 105, {"rank9": 2}), (4, 104, {"use_witch": False, "use_diplomat": False}),
                           (8, 108, {"use_diplomat": False, "warlord_own_city": True,
                                     "last_picker_takes_face_down": True, "haunted_city_not_last_round": True})],
    "signorie": [(3, 103, {"short_season": True}), (2, 105, {"misfit_tiles_face_down": True})],
    "troyes": [(3, 103, {"printed_joust": True})],
}


@dataclass(frozen=True)
class Spec:
    """Which game to play: the pack, the number of players, the seed of both
    the game and the random chooser, and the options (sorted, for a stable name)."""

    pack: str
    players: int
    seed: int
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def name(self) -> str:
        """The game's key in the golden file, e.g. '4p' or '5p+rank9=2'."""
        opts = ",".join(f"{k}={json.dumps(v)}" for k, v in self.options)
        return f"{self.players}p" + (f"+{opts}" if opts else "")

    def describe(self) -> str:
        options = f", options {dict(self.options)}" if self.options else ""
        return f"{self.pack} {self.players} players (seed {self.seed}{options})"


@functools.lru_cache(maxsize=None)
def game_of(pack: str) -> Game:
    """Each pack is loaded and compiled once per process (it takes ~0.5 s)."""
    return load_game(pack)


def specs(pack: str) -> list[Spec]:
    """Every player count the pack allows (seed = player count), then its option variants."""
    game = game_of(pack)
    out = [Spec(pack, n, n) for n in range(game.min_players, game.max_players + 1)]
    out += [Spec(pack, n, seed, tuple(sorted(opts.items()))) for n, seed, opts in VARIANTS.get(pack, [])]
    return out


def all_specs() -> list[Spec]:
    return [s for pack in shipped_packs() for s in specs(pack)]


def state_hash(st: State) -> str:
    """sha256 of the canonical JSON of a state (sorted keys, no spaces)."""
    text = json.dumps(st.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def play_random(spec: Spec) -> State:
    """Play the game afresh with the seeded random chooser, to the end."""
    game = game_of(spec.pack)
    st = game.new_state(spec.players, spec.seed, options=dict(spec.options))
    rng = random.Random(spec.seed)
    while not st.over:
        game.apply(st, rng.randrange(len(st.pending.options)))
        if len(st.log) > STEP_LIMIT:
            raise AssertionError(f"{spec.describe()}: no end after {STEP_LIMIT} decisions")
    return st


def record(spec: Spec) -> dict:
    """What is stored of one game."""
    st = play_random(spec)
    return {
        "pack": spec.pack, "players": spec.players, "seed": spec.seed, "options": dict(spec.options),
        "decisions": len(st.log), "scores": st.scores, "ranking": st.ranking, "state_sha256": state_hash(st),
        "log": st.log,
    }


def _entry(e: list) -> str:
    return f"P{e[0] + 1} option {e[1]} {e[2]!r}"


def first_log_difference(expected: list, got: list) -> Optional[str]:
    """The first decision (numbered from 1) at which two logs differ, or None."""
    for i, (a, b) in enumerate(zip(expected, got)):
        if list(a) != list(b):
            return f"decision {i + 1}: expected {_entry(a)}, got {_entry(b)}"
    if len(expected) != len(got):
        n = min(len(expected), len(got))
        if len(got) < len(expected):
            return f"decision {n + 1}: expected {_entry(expected[n])}, got the end of the game after {n} decisions"
        return f"decision {n + 1}: expected the end of the game after {n} decisions, got {_entry(got[n])}"
    return None


def replay(spec: Spec, stored: dict, old_keys: bool = False) -> tuple[Optional[str], Optional[State]]:
    """Apply the stored choice indices from the same seed, checking at every
    decision that the chooser and the chosen key are the stored ones (with
    ``old_keys``, a stored key may also be the positional key the option had
    before keys were stable: 'white_die#3'; see ``rekey``).
    Returns (first difference or None, the final state if the replay got there)."""
    game = game_of(spec.pack)
    st = game.new_state(spec.players, spec.seed, options=dict(spec.options))
    log = stored["log"]
    for i, (player, index, key) in enumerate(log):
        if st.over:
            return f"decision {i + 1}: expected {_entry(log[i])}, got the end of the game after {i} decisions", None
        options = st.pending.options
        if index >= len(options):
            return (f"decision {i + 1}: expected {_entry(log[i])}, got only {len(options)} options "
                    f"({', '.join(o[0] for o in options[:8])}{', ...' if len(options) > 8 else ''})"), None
        old = st.pending.positional_key(index) if old_keys else None
        game.apply(st, index)
        if st.log[-1] != [player, index, key] and not (old == key and st.log[-1][:2] == [player, index]):
            return f"decision {i + 1}: expected {_entry(log[i])}, got {_entry(st.log[-1])}", None
    if not st.over:
        return (f"decision {len(log) + 1}: expected the end of the game after {len(log)} decisions, got a pending "
                f"decision for P{st.pending.player + 1} ({', '.join(st.pending.keys()[:8])})"), st
    return None, st


def final_difference(stored: dict, st: State) -> Optional[str]:
    """How the end of a game differs from the stored one (scores, ranking, state hash), or None."""
    if st.scores != stored["scores"]:
        return f"final scores: expected {stored['scores']}, got {st.scores}"
    if st.ranking != stored["ranking"]:
        return f"final ranking: expected {stored['ranking']}, got {st.ranking}"
    got = state_hash(st)
    if got != stored["state_sha256"]:
        return f"final state hash: expected {stored['state_sha256'][:16]}..., got {got[:16]}... (same log, scores and ranking)"
    return None


# ---------------------------------------------------------------- files
def path_of(pack: str) -> Path:
    return GOLDEN_DIR / f"{pack}.json"


def _format(value: Any, indent: int = 0) -> str:
    """JSON with one line per log entry: small, stable and readable in a diff."""
    pad = " " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f'{pad}  {json.dumps(k)}: {_format(v, indent + 2)}' for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and any(isinstance(v, (list, dict)) for v in value):
        items = [pad + "  " + _format(v, indent + 2) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(value, separators=(",", ":"))


def write_pack(pack: str) -> Path:
    """(Re)record every golden game of a pack; returns the file written."""
    data = {
        "format": FORMAT,
        "note": "Golden playthroughs. Regenerate only on purpose: python tools/golden.py --write",
        "games": {s.name: record(s) for s in specs(pack)},
    }
    GOLDEN_DIR.mkdir(exist_ok=True)
    path = path_of(pack)
    path.write_text(_format(data) + "\n", encoding="utf-8")
    return path


@functools.lru_cache(maxsize=None)
def stored_games(pack: str) -> dict:
    """The stored games of a pack, by name (empty if the file is missing)."""
    path = path_of(pack)
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))["games"]


def check(spec: Spec) -> Optional[str]:
    """The first difference between the stored game and the engine now, or None:
    first the replay of the stored choices, then a fresh seeded random game."""
    stored = stored_games(spec.pack).get(spec.name)
    if stored is None:
        return f"no stored game '{spec.name}' in {path_of(spec.pack)}"
    diff, st = replay(spec, stored)
    if diff is None and st is not None:
        diff = final_difference(stored, st)
    if diff is None:
        diff = first_log_difference(stored["log"], play_random(spec).log)
        diff = diff and f"the seeded random chooser: {diff}"
    return diff


def rekey(pack: str) -> tuple[Path, int]:
    """Rewrite only the option keys of a pack's stored games (after a change of
    the key format, not of any rule): every game is replayed by its stored
    indices, accepting old positional keys, and must end with its stored
    scores, ranking and state hash (the hash of the final state with the
    stored keys in its log, which the state holds), else nothing is written
    (AssertionError). The new hash differs only by the keys in the log.
    Returns the file and how many keys changed."""
    data = json.loads(path_of(pack).read_text(encoding="utf-8"))
    changed = 0
    for spec in specs(pack):
        stored = data["games"][spec.name]
        diff, st = replay(spec, stored, old_keys=True)
        if diff is None:
            new_log, st.log = st.log, [list(e) for e in stored["log"]]
            diff = final_difference(stored, st)
            st.log = new_log
        if diff:
            raise AssertionError(f"{spec.describe()}: {diff}: not a change of keys only")
        changed += sum(1 for a, b in zip(stored["log"], st.log) if a[2] != b[2])
        stored["log"] = st.log
        stored["state_sha256"] = state_hash(st)
    path_of(pack).write_text(_format(data) + "\n", encoding="utf-8")
    stored_games.cache_clear()
    return path_of(pack), changed
