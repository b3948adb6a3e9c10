"""A pack's action catalogue: one fixed list of option keys, so that a learner sees the
same action space at every decision of every game, whatever each menu holds.

A decision's options are named by stable keys (``build:castle``, ``white_die@P2=4``,
``skip``; ``meeple.dsl.runtime``); a learner needs a fixed number of actions. The
catalogue lists every key a game of the pack can offer, each at a fixed index:

- the keys the declarations give: every action's id, and ``id:KEY`` for each item its
  parameter may name (cards of its kind, seats, an enum's values); every card's key
  with what tells identical ones apart (``@P2`` for an owner, ``=4`` for a die's value,
  ``#2`` for a second identical one); seats ``p1..pN``; the labels of every ``choose
  one``; the numbers a ``choose n from A..B`` may offer where the declarations bound
  ``A`` and ``B`` (``meeple.rl.declared``); ``skip`` and ``done``;
- and the keys met in random games (the numbers of a range the declarations do not
  bound, and anything the first part cannot tell), with the prompts met and the number
  of menu positions (twice the longest menu met) for ``actions="index"``. Numbers met
  that the declarations do not give are widened the same way: every whole number from
  the least met to twice the greatest (a shipped pack's count of activations met 1 to
  6 in 1,000 random games, and 7 in a later one).

It is kept beside this module, one JSON file per shipped pack (``catalogues/ID.json``),
with the pack's id and version: a catalogue made for another version of the pack, or
an option key it lacks, is an error naming the command that makes it again
(``meeple rl catalogue PACK``; ``--check`` tells whether a stored one is stale), never a
silent mapping. A pack with no stored
catalogue (a designer's folder) gets one built when its environment is made.
"""
from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path
from typing import Any, Iterable, Optional

from meeple.core.errors import MeepleError, Refusal
from meeple.dsl.typesys import PLAYER, Card, Enum

from meeple.rl.declared import Bounds, choose_one_labels, unit_trees

HERE = Path(__file__).parent / "catalogues"
FORMAT = 1
GAMES = 1000           # random games behind a shipped catalogue
QUICK_GAMES = 50       # random games behind a catalogue built when an environment is made
MENU_MARGIN = 2        # menu positions (actions="index") over the longest menu met, numbers over the greatest
_WHOLE = re.compile(r"-?[0-9]+")


class CatalogueMissing(MeepleError):
    """An option key (or a menu length) the pack's catalogue does not have, or a catalogue
    made for another version of the pack."""


def shipped(game) -> bool:
    """Whether ``game`` is a shipped pack as shipped (its folder, not a copy keeping its id):
    only those have a catalogue stored with meeple.rl."""
    import os
    from meeple.loading.folders import shipped_pack
    folder = shipped_pack(game.id)
    if folder is None:
        return False
    root = Path(game.pack.info.root)
    if not root.exists():       # a folder named relative to another directory: the id decides (the version is checked)
        return True
    return os.path.samefile(folder, root)


def rebuild_command(game, file: Optional[Path] = None) -> str:
    """The command that makes ``game``'s catalogue again: a shipped pack by its id (to its
    stored file unless another is named), another by its folder, with the file it is kept in."""
    is_shipped = shipped(game)
    name = game.id if is_shipped else str(game.pack.info.root)
    named = file is not None and not (is_shipped and Path(file).resolve() == stored_path(game.id).resolve())
    return f"meeple rl catalogue {name}" + (f" --file {file}" if named else "")


@dataclasses.dataclass(frozen=True)
class Catalogue:
    """The keys of a pack (index = action number), its prompts and its menu positions (``actions="index"``)."""

    pack_id: str
    pack_version: str
    keys: tuple[str, ...]
    prompts: tuple[str, ...]
    max_options: int
    games: int
    remake: str = dataclasses.field(default="", compare=False)     # the command that makes it again (not stored)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", {k: i for i, k in enumerate(self.keys)})
        object.__setattr__(self, "prompt_index", {p: i for i, p in enumerate(self.prompts)})

    def action(self, key: str) -> int:
        """The action number of option ``key``; a key the catalogue lacks is an error."""
        try:
            return self.index[key]  # type: ignore[attr-defined]
        except KeyError:
            raise CatalogueMissing(f"option key '{key}' is not in the action catalogue of {self.pack_id} "
                                   f"{self.pack_version}", hint=f"make it again: {self.remake or 'meeple rl catalogue ' + self.pack_id}") from None

    def to_json(self) -> dict:
        return {"meeple_rl_catalogue": FORMAT, "pack_id": self.pack_id, "pack_version": self.pack_version,
                "games": self.games, "max_options": self.max_options, "prompts": list(self.prompts), "keys": list(self.keys)}

    @staticmethod
    def from_json(data: dict) -> "Catalogue":
        return Catalogue(data["pack_id"], data["pack_version"], tuple(data["keys"]), tuple(data["prompts"]),
                         int(data["max_options"]), int(data.get("games", 0)))


def prompt_form(prompt: str) -> str:
    """A prompt with its numbers written as '#' ('discard a card (2 chosen)' and '(3 chosen)' are one prompt)."""
    return re.sub(r"\d+", "#", prompt)


# ------------------------------------------------------------ keys from the declarations
def card_keys(game, kind: Optional[str]) -> list[str]:
    """Every key an option naming a card of ``kind`` (None: any card) may have: its id,
    then with an owner and a value where its kind has them, each numbered up to its copies."""
    v = game.vocab
    cards = v.kind_cards.get(kind, ()) if kind is not None else range(v.ncards)
    by_id: dict[str, list[int]] = {}
    for c in cards:
        by_id.setdefault(v.card_def_ids[c], []).append(c)
    out: list[str] = []
    for cid, copies in by_id.items():
        k = v.card_defs[v.card_def_index[copies[0]]].kind
        cvars = v.kind_cvars.get(k, {})
        seats = {v.card_seat[c] for c in copies}
        owners: list[Optional[int]] = list(range(game.max_players)) if "owner" in cvars else sorted(s for s in seats if s >= 0)
        if "owner" in cvars and -1 in seats or not owners:
            owners = [None, *owners]
        values: list[Any] = [None]
        if "value" in cvars:
            faces = v.card_fields[copies[0]][v.field_index["faces"]] if "faces" in v.field_index else None
            default = v.cvar_default_row[v.cvar_index["value"]]
            values = [default, *range(1, (faces or 0) + 1)]
            values = list(dict.fromkeys(values))
        n = len(copies)
        out.append(cid)
        out += [f"{cid}#{i}" for i in range(2, n + 1)]
        for owner in owners:
            for value in values:
                detail = ("" if owner is None else f"@P{owner + 1}") + ("" if "value" not in cvars else f"={value}")
                if not detail:
                    continue
                same = n if owner is None or "owner" in cvars else sum(1 for c in copies if v.card_seat[c] == owner)
                out.append(cid + detail)
                out += [f"{cid}{detail}#{i}" for i in range(2, same + 1)]
    return out


def item_keys(game, t) -> list[str]:
    """The keys of options of type ``t`` the declarations can list (none for a number or a text)."""
    if isinstance(t, Card):
        return card_keys(game, t.kind)
    if t == PLAYER:
        return [f"p{p + 1}" for p in range(game.max_players)]
    if isinstance(t, Enum):
        return [str(x) for x in game.vocab.enums.get(t.name, ())]
    return []


def declared_keys(game) -> list[str]:
    """The keys the pack's declarations give (see the module's docstring), in a fixed order."""
    keys: dict[str, None] = {"skip": None, "done": None}
    for a in game.actions:
        keys[a.id] = None
        if a.binder is not None:
            for k in item_keys(game, a.binder[2]):
                keys[f"{a.id}:{k}"] = None
    for k in card_keys(game, None):
        keys[k] = None
    for p in range(game.max_players):
        keys[f"p{p + 1}"] = None
    for values in game.vocab.enums.values():
        for x in values:
            keys[str(x)] = None
    trees = unit_trees(game)
    for label in choose_one_labels(trees):
        keys[label] = None
    for k in Bounds(game, trees).range_keys():
        keys.setdefault(k, None)
    return list(keys)


# ------------------------------------------------------------ keys met in random games
def seen_in_games(game, games: int, seed: int = 0) -> tuple[dict[str, None], dict[str, None], int]:
    """The option keys and prompts met in ``games`` random games (player counts in turn), and the longest menu."""
    keys: dict[str, None] = {}
    prompts: dict[str, None] = {}
    longest = 0
    counts = range(game.min_players, game.max_players + 1)
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g)
        st = game.new_state(counts[g % len(counts)], seed * 1_000_003 + g)

        def choose(dec) -> int:
            nonlocal longest
            if st.choices() + st.refused >= game.max_decisions:
                raise _AtLimit        # the environments truncate a game here: so do these
            for k in dec.keys():
                keys[k] = None
            prompts[prompt_form(dec.prompt)] = None
            n = len(dec.values)
            longest = max(longest, n)
            return rng.randrange(n)
        while not st.over:
            try:
                game.play_out(st, choose)
            except Refusal:      # a rule refused the choice, the state put back: choose again
                pass
            except _AtLimit:
                break
    return keys, prompts, longest


class _AtLimit(Exception):
    """A random game reached the pack's decision limit unfinished (``seen_in_games`` stops it)."""


def build(game, games: int = GAMES, seed: int = 0) -> Catalogue:
    """The catalogue of ``game``: its declared keys, then the keys met in ``games`` random games."""
    keys = dict.fromkeys(declared_keys(game))
    seen, prompts, longest = seen_in_games(game, games, seed)
    met = [int(k) for k in seen if k not in keys and _WHOLE.fullmatch(k)]
    for k in seen:
        keys.setdefault(k, None)
    # numbers no declaration bounds: greater ones turn up in other games, as longer menus do
    if met:
        for n in range(min(met), MENU_MARGIN * max(met) + 1):
            keys.setdefault(str(n), None)
    # menu positions (actions="index"): twice the longest menu met, as longer menus turn up
    # in other games (41 options in a shipped pack, where the 1,000 games behind its catalogue met 36)
    return Catalogue(game.id, str(game.pack.info.version), tuple(keys), tuple(prompts), MENU_MARGIN * longest, games)


def stored_path(pack_id: str) -> Path:
    return HERE / f"{pack_id}.json"


def read(game, file: Path) -> Catalogue:
    """The catalogue in ``file``, checked against ``game``: one made for another version of
    the pack, or lacking a key the declarations give now, is an error naming the command
    that makes it again."""
    if not file.exists():
        raise CatalogueMissing(f"no action catalogue at {file}", hint=f"make one: {rebuild_command(game, file)}")
    try:
        cat = Catalogue.from_json(json.loads(file.read_text(encoding="utf-8")))
    except (ValueError, KeyError, TypeError) as err:
        raise CatalogueMissing(f"{file} is not an action catalogue ({type(err).__name__}: {err})",
                               hint=f"make it again: {rebuild_command(game, file)}") from None
    version = str(game.pack.info.version)
    if cat.pack_id != game.id or cat.pack_version != version:
        raise CatalogueMissing(f"the action catalogue {file.name} was made for {cat.pack_id} {cat.pack_version}, "
                               f"this is {game.id} {version}", hint=f"make it again: {rebuild_command(game, file)}")
    missing = [k for k in declared_keys(game) if k not in cat.index]  # type: ignore[attr-defined]
    if missing:        # the rules changed under the same version
        raise CatalogueMissing(f"the action catalogue {file.name} lacks {len(missing)} key(s) the declarations of "
                               f"{game.id} give now ({', '.join(missing[:3])}{', ...' if len(missing) > 3 else ''})",
                               hint=f"make it again: {rebuild_command(game, file)}")
    return dataclasses.replace(cat, remake=rebuild_command(game, file))


def for_game(game, path: Optional[str | Path] = None) -> Catalogue:
    """The catalogue of ``game``: the one at ``path``, else the stored one of a shipped pack
    (not of a copy of its folder), else one built now from the declarations and ``QUICK_GAMES`` random games (``read``
    checks a file's)."""
    file = Path(path) if path is not None else stored_path(game.id)
    if path is None and (not shipped(game) or not file.exists()):
        cat = build(game, QUICK_GAMES)
        return dataclasses.replace(cat, remake=f"{rebuild_command(game, Path('FILE'))}, then give catalogue=FILE")
    return read(game, file)


def stale(game, file: Path, games: Optional[int] = None) -> Optional[str]:
    """Why the catalogue in ``file`` is not the one ``meeple rl catalogue`` would write now
    (the same random games: ``games``, else as many as it was made with), or None when it
    is. Any difference counts: an action number meaning another key is as wrong as a key
    missing."""
    cat = read(game, file)
    fresh = build(game, cat.games if games is None else games)
    if fresh.keys == cat.keys and fresh.prompts == cat.prompts and fresh.max_options == cat.max_options:
        return None
    added = [k for k in fresh.keys if k not in cat.index]  # type: ignore[attr-defined]
    dropped = [k for k in cat.keys if k not in fresh.index]  # type: ignore[attr-defined]
    parts = [f"{len(added)} key(s) to add ({', '.join(added[:3])}{', ...' if len(added) > 3 else ''})" if added else "",
             f"{len(dropped)} key(s) no longer met ({', '.join(dropped[:3])}{', ...' if len(dropped) > 3 else ''})" if dropped else "",
             "the keys in another order" if not added and not dropped and fresh.keys != cat.keys else "",
             "other prompts" if fresh.prompts != cat.prompts else "",
             f"{fresh.max_options} menu positions, not {cat.max_options}" if fresh.max_options != cat.max_options else ""]
    return f"the action catalogue {file} is stale: " + "; ".join(filter(None, parts))


def write(cat: Catalogue, file: Path) -> None:
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps(cat.to_json(), indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
