"""``meeple new-pack``: a folder a modder can start from, valid as generated.

The new pack extends a game: pack.yaml with the version range, a rules file
showing where additions and overrides go, one example card of each of the
game's card kinds (with the schema modeline, fields filled from the game's
own first card of that kind, and ``copies: 0`` so the game plays as before
until the modder says otherwise), a README and a scenario test. Every file's
modeline names a schema in the pack's own schemas/ folder, generated from the
extended pack's declarations (never a path into the installed engine).
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml

from meeple.core.errors import UsageError
from meeple.runtime.game import Game

PACK_ID = re.compile(r"[a-z][a-z0-9-]*")


def _yaml_value(value: Any) -> str:
    return yaml.safe_dump(value, default_flow_style=True, allow_unicode=True).strip().removesuffix("...").strip()


def _hooks_block(card) -> str:
    """The example card's ``hooks:``, copied from the game's own card, so a modder sees
    where a card's rules go and how they are indented (the card has copies: 0, so they
    never run until the modder deals it)."""
    if not card.hooks:
        return ""
    lines = ["    hooks:"]
    for name, src in card.hooks:
        lines.append(f"      {name}: |")
        lines += [f"        {line}" if line.strip() else "" for line in src.text.strip("\n").splitlines()]
    return "\n".join(lines)


def _extends_ref(game: Game, base_root: Path, target: Path) -> str:
    from meeple.loading.folders import content_root
    try:
        base_root.resolve().relative_to(content_root().resolve())
        return game.pack.info.id
    except ValueError:
        return os.path.relpath(base_root.resolve(), target.resolve())


def _new_folder(name: str, where: Path, what: str) -> Path:
    """``where/name`` for a new pack or game, refused (usage error, nothing written) when the
    name is not a pack id, is a shipped pack's id, or the folder exists."""
    from meeple.loading.folders import shipped_packs
    if not PACK_ID.fullmatch(name):
        raise UsageError(f"'{name}' is not a pack id: use lower-case letters, digits and '-', starting with a letter")
    if name in shipped_packs():
        raise UsageError(f"'{name}' is the id of a shipped pack; give the new {what} its own id (say '{name}-mine')")
    target = where / name
    if target.exists():
        raise UsageError(f"{target} already exists; choose another name or folder")
    return target


def new_pack(name: str, base: str, where: Path) -> list[Path]:
    """Write the folder ``where/name``, whole or not at all (built beside it, then
    renamed: engine/core/outputs.py); returns the files written."""
    from meeple.runtime.game import load_game
    from meeple.core.outputs import new_folder
    from meeple.loading.folders import resolve_all
    target = _new_folder(name, where, "pack")
    game = load_game(base)
    roots = resolve_all(base)
    with new_folder(target) as building:
        return _pack_files(name, game, roots, target, building)


def _pack_files(name: str, game: Game, roots: list[Path], target: Path, building: Path) -> list[Path]:
    """The files of the new pack ``target``, written into ``building``; their final paths.

    One step a file (or a file per card kind), in the order a modder reads them: what
    the pack extends, where its rules go, its cards, its scenario, its README; then the
    schemas its modelines name."""
    written: list[Path] = []

    def write(rel: str, text: str) -> None:
        path = building / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(target / rel)

    examples = _example_cards(game)
    files = [("pack.yaml", _pack_yaml(name, game, roots, target)),
             ("rules.yaml", _rules_yaml(game)),
             *((f"{card.kind}.yaml", _cards_yaml(game, card)) for card in examples),
             (f"tests/{name}.yaml", _scenario_yaml(name, game, examples[0].kind if examples else None)),
             ("README.md", _pack_readme(name, game))]
    for rel, text in files:
        write(rel, text)
    _write_schemas(game, target, write)
    return written


def _pack_yaml(name: str, game: Game, roots: list[Path], target: Path) -> str:
    """pack.yaml: the packs it extends, the last (the game itself) with the range of its
    versions this pack is written for."""
    info = game.pack.info
    major = info.version.split(".")[0]
    refs = [_extends_ref(game, r, target) for r in roots]
    ext_lines = "\n".join(f"  - {{pack: {r}, version: \">={info.version},<{int(major) + 1}\"}}" if i == len(refs) - 1 else f"  - {r}"
                          for i, r in enumerate(refs))
    return f"""# yaml-language-server: $schema={_schema_ref('pack')}
kind: pack
id: {name}
name: {{en: {name}}}
version: "0.1.0"
engine: ">=0.1"
extends:
{ext_lines}
description: >
  A pack that extends {info.id}. Edit its cards and rules, then run
  'meeple validate {name} --only-mine' and 'meeple test {name}/tests'.
"""


def _rules_yaml(game: Game) -> str:
    """rules.yaml: empty, with a commented example of an addition and an override."""
    return f"""# yaml-language-server: $schema={_schema_ref('rules')}
# Rules this pack adds to {game.pack.info.id} (new names) or overrides (existing ones).
# For example:
#
# add:
#   constants:
#     bonus_points: 1
#   procedures:
#     my_rule:
#       effect: |
#         gain bonus_points {game.defn.score}
# override:
#   flow:
#     max_rounds: 20
kind: rules
"""


def _example_cards(game: Game) -> list:
    """The game's first card of each card kind, in the order the pack lists them: the
    model of each kind's example."""
    firsts: dict[str, Any] = {}
    for card in game.pack.cards:
        firsts.setdefault(card.kind, card)
    return list(firsts.values())


def _cards_yaml(game: Game, card) -> str:
    """A cards file for ``card``'s kind: an example card shaped as ``card`` (its fields
    and hooks), out of play (copies: 0), and a commented patch of the game's own."""
    fields = "\n".join(f"    {k}: {_yaml_value(v)}" for k, v in card.fields if v is not None)
    piece = "    # a piece: write per_player: N (N for every player) instead of copies\n" if card.per_player else ""
    body = "\n".join(part for part in (fields, _hooks_block(card)) if part)
    return f"""# yaml-language-server: $schema={_schema_ref('cards')}
# {card.kind} cards this pack adds to {game.pack.info.id} (cards:), and changes to the
# game's own: replace: (whole cards), patch: (single keys, e.g. a cost),
# remove: (ids). The example below starts from the game's '{card.id}';
# copies: 0 keeps it out of play until you set a number.
kind: cards
card_kind: {card.kind}
cards:
  - id: example_{card.kind}
    name: {{en: Example {card.kind.replace('_', ' ')}}}
    text: {{en: "An example {card.kind.replace('_', ' ')}: edit me."}}
    copies: 0
{piece}{body}
# patch:
#   - id: {card.id}
#     name: {{en: A new name}}
"""


def _scenario_yaml(name: str, game: Game, first_kind: Any) -> str:
    """tests/NAME.yaml: one scenario that passes as generated (the game starts, the
    example card of the first kind out of play)."""
    expect = (f"          - not any(c in {first_kind} where c is example_{first_kind})   # copies: 0 keeps it out of play"
              if first_kind else "          - round >= 1")
    return f"""# yaml-language-server: $schema={_schema_ref('scenario', up=1)}
# Rules scenarios for {name}: 'meeple test {name}/tests'. See meeple's
# docs/scenarios.md for every step key.
kind: scenario
pack: ..
players: {game.min_players}
seed: 1
scenarios:
  - name: the game starts with {name} loaded
    steps:
      - expect:
{expect}
"""


def _pack_readme(name: str, game: Game) -> str:
    """README.md: what the pack is and the commands that check, test and play it."""
    info = game.pack.info
    return f"""# {name}

A content pack for meeple that extends {info.id} {info.version}.

- `meeple validate {name} --only-mine` checks it together with {info.id} and
  shows only this pack's warnings (without `--only-mine`, {info.id}'s own
  warnings, such as its provisional values, are listed first);
- `meeple cards {name}` lists its cards, `meeple diff {info.id} {name}` what it changes;
- `meeple test {name}/tests` runs its scenarios;
- `meeple play {name} --players {game.min_players}` and
  `meeple simulate {name} -n 1000 -p {game.min_players}` play it.

The example cards have `copies: 0`: they are in no game, so `simulate`,
`compare` and `diff` leave them out until you give them copies.

Files: `pack.yaml` (what it extends), `rules.yaml` (rules added or
overridden), one cards file per card kind, `tests/` (scenarios), `schemas/`
(the JSON Schemas an editor checks these files with, from {info.id}'s
declarations; after adding card fields or kinds, write them again with
`meeple schema --pack {name} --export {name}/schemas`).
"""


# ---------------------------------------------------------------- new-game
# The files of `meeple new-game NAME`: a small base game (a market of cards
# bought with coins) that uses each part of the format once. @NAME@ and
# @SCHEMA_*@ are filled in; the rest is written as it stands.
_GAME_PACK = """\
# yaml-language-server: $schema=@SCHEMA_PACK@
kind: pack
id: @NAME@
name: {en: @NAME@}
version: "0.1.0"
engine: ">=0.1"
description: >
  A new base game made by 'meeple new-game'. Edit game.yaml (the rules) and
  cards.yaml (the cards), then run 'meeple validate @NAME@' and
  'meeple test @NAME@/scenarios'.
"""

_GAME_RULES = """\
# yaml-language-server: $schema=@SCHEMA_GAME@
# The rules of @NAME@: players buy cards from a market of 3 with coins, or
# take 2 coins; the game ends when the market is empty; cards score their
# points. Every text below is the effect language (see meeple's docs/language.md).
kind: game
players: {min: 2, max: 4}

constants:
  market_size: 3            # cards face up in the market
  start_coins: 2

resources:
  coins: {name: {en: Coins}, min: 0}
  vp: {name: {en: Victory points}, min: 0}

player_variables:
  turn_over: bool           # set by an action to end the player's turn

card_kinds:
  item:                     # cards.yaml holds the cards of this kind
    starts_in: deck
    fields:
      cost: int             # coins to buy it
      points: int           # victory points at the end

zones:
  deck: {per: game, visibility: nobody, holds: item}
  market: {per: game, visibility: public, holds: item}
  tableau: {per: player, visibility: public, holds: item, in_play: true}   # in_play: its cards' triggers are live

events:
  bought:                   # heard by the triggers of cards in play
    params: {card: item, by: player}

procedures:
  turn:
    effect: |
      set turn_over = false
      play actions turn until turn_over

actions:
  turn:
    - id: buy
      name: {en: Buy}
      with: c in market where c.cost <= coins
      effect: |
        pay c.cost coins
        move c to tableau
        draw 1 from deck to market
        emit bought(c, me)
        set turn_over = true
    - id: collect
      name: {en: Take 2 coins}
      effect: |
        gain 2 coins
        set turn_over = true

flow:
  setup: |
    shuffle deck
    draw market_size from deck to market
    for each p in players:
        give start_coins coins to p
  round: |
    for each p in players:
        as p:
            call turn()
  end_when: size(market) == 0
  max_rounds: 50
  scoring: |
    for each p in players:
        give sum(c.points for c in tableau of p) vp to p

score:
  resource: vp
  tiebreak:
    - coins                 # the most coins left wins a tie
  evaluation: vp + sum(c.points for c in tableau) + coins / 2   # what bots aim for
"""

_GAME_CARDS = """\
# yaml-language-server: $schema=@SCHEMA_CARDS@
# The item cards of @NAME@ (fields: game.yaml, card_kinds: item). A card
# may add triggers (event handlers, live while it lies in the tableau),
# actions and hooks.
kind: cards
card_kind: item
cards:
  - id: well
    name: {en: Well}
    cost: 1
    points: 1
    copies: 6
    text: {en: "1 point."}
  - id: mill
    name: {en: Mill}
    cost: 3
    points: 3
    copies: 4
    text: {en: "3 points."}
  - id: tower
    name: {en: Tower}
    cost: 6
    points: 7
    copies: 2
    text: {en: "7 points."}
  - id: guild
    name: {en: Guild}
    cost: 4
    points: 2
    copies: 2
    text: {en: "2 points. Each time you buy another card, take 1 coin."}
    triggers:
      bought: |
        if by == me and card != this:
            gain 1 coins
"""

_GAME_SCENARIO = """\
# yaml-language-server: $schema=@SCHEMA_SCENARIO@
# Rules scenarios for @NAME@: 'meeple test @NAME@/scenarios'. See meeple's
# docs/scenarios.md for every step key.
kind: scenario
pack: ..
players: 2
seed: 1
scenarios:
  - name: buying a card pays its cost and the Guild pays 1 coin back
    start:
      zones: {market: [well, mill, tower]}
      players:
        1: {coins: 3, tableau: [guild]}
    steps:
      - offered: [buy:well, buy:mill, collect]
      - not_offered: [buy:tower]        # 6 coins; P1 has 3
      - choose: buy:mill
        by: 1
      - expect:
          - coins of player(1) == 1     # 3 - 3 + 1 from the Guild
          - size(tableau of player(1)) == 2
          - size(market) == 3           # refilled from the deck
"""

_GAME_HOWTO = """\
# yaml-language-server: $schema=@SCHEMA_HOWTO@
# How to play @NAME@, in your own words: 'meeple rules @NAME@' prints it, and
# '?' at a prompt of 'meeple play' reads it. Give each text in every language
# the game speaks ({en: ..., ja: ...}). See meeple's docs/packs.md.
kind: howto
overview:
  en: |
    Buy the cards worth the most points. On your turn, buy a card from the
    market of 3 with coins, or take 2 coins. When the market is empty, the
    game ends and each card scores its points; the most points wins.
sections:
  - title: {en: A turn}
    points:
      - {en: "Buy: pay a market card's cost in coins and put it in your tableau; the market refills."}
      - {en: "Take 2 coins."}
  - title: {en: The end and the scoring}
    text: {en: "When the market is empty, each card scores its points; ties go to the most coins left."}
glossary:                 # the words of the rules' names that declare none (meeple cards --generated)
  turn_over: {en: the turn is over}
"""

_GAME_README = """\
# @NAME@

A base game for meeple, made by `meeple new-game`: players buy cards from a
market with coins, or take 2 coins; when the market is empty the cards
score their points.

- `meeple validate @NAME@` checks it;
- `meeple cards @NAME@` lists its cards, `meeple rules @NAME@` says how to play;
- `meeple test @NAME@/scenarios` runs its scenarios;
- `meeple play @NAME@ --players 2 --bots human,random` plays it,
  `meeple simulate @NAME@ -n 1000 -p 3` plays many games with bots.

Files: `pack.yaml` (id, name, version), `game.yaml` (players, resources,
card kinds, zones, events, procedures, actions, flow, scoring),
`cards.yaml` (the cards), `scenarios/` (rules scenarios), `howto.yaml`
(how to play, which `meeple rules @NAME@` prints).
"""


def new_game(name: str, where: Path) -> list[Path]:
    """Write the base game folder ``where/name``; returns the files written."""
    from meeple.core.outputs import new_folder
    from meeple.loading.schemas import schema_dir
    target = _new_folder(name, where, "game")
    files = [("pack.yaml", _GAME_PACK), ("game.yaml", _GAME_RULES), ("cards.yaml", _GAME_CARDS),
             (f"scenarios/{name}.yaml", _GAME_SCENARIO), ("howto.yaml", _GAME_HOWTO), ("README.md", _GAME_README)]
    written: list[Path] = []
    with new_folder(target) as building:       # whole or not at all (engine/core/outputs.py)
        for rel, text in files:
            path = building / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            for kind in ("pack", "game", "cards", "scenario", "howto"):
                text = text.replace(f"@SCHEMA_{kind.upper()}@", _schema_ref(kind, up=rel.count("/")))
            path.write_text(text.replace("@NAME@", name), encoding="utf-8")
            written.append(target / rel)
        # the generic schemas, copied into the game's own schemas/ folder (modelines never lead into the engine)
        for kind in ("pack", "game", "cards", "scenario", "howto"):
            path = building / "schemas" / f"{kind}.schema.json"
            path.parent.mkdir(exist_ok=True)
            path.write_text((schema_dir() / f"{kind}.schema.json").read_text(encoding="utf-8"), encoding="utf-8")
            written.append(target / "schemas" / f"{kind}.schema.json")
    return written
SCHEMA_KINDS = ("pack", "rules", "cards", "scenario")    # the kinds of the files a new pack holds


def _write_schemas(game: Game, target: Path, write) -> None:
    """schemas/KIND.schema.json inside the pack, generated from the extended pack's
    declarations (``meeple schema --pack``), so the modelines never lead outside it."""
    import json
    from meeple.loading.schemas import pack_schema
    for kind in SCHEMA_KINDS:
        write(f"schemas/{kind}.schema.json", json.dumps(pack_schema(game.pack, kind), indent=2, ensure_ascii=False) + "\n")


def _schema_ref(kind: str, up: int = 0) -> str:
    """The modeline's schema: the pack's own copy in its schemas/ folder, relative to a
    file ``up`` folders below the pack folder."""
    return "../" * up + f"schemas/{kind}.schema.json"
