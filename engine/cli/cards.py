"""``meeple cards``, ``meeple rules``: a game's cards listed, or one shown with its data and rules
text; the text generated from their rules; their provisional values; and where
each number comes from (provenance).
"""
from __future__ import annotations

import sys
from typing import Any, Optional

import click

from meeple.cli import arguments
from meeple.cli.group import ExitCode, main
from meeple.core.errors import location
from meeple.runtime.game import Game


@main.command()
@click.argument("game_name", metavar="GAME")
@click.argument("card_id", metavar="[ID]", required=False)
@click.option("--lang", default="en", show_default=True, help="locale of names and texts")
@click.option("--provisional", is_flag=True,
              help="list the values marked provisional, with their reasons (of one card, given its ID)")
@click.option("--provenance", is_flag=True,
              help="every number (and every value cited or marked) with where it comes from: cited, provisional or unmarked")
@click.option("--generated", is_flag=True,
              help="only the rules text generated from the card's rules (in --lang), for one card or every card")
def cards(game_name: str, card_id: Optional[str], lang: str, provisional: bool, provenance: bool, generated: bool) -> None:
    """List a game's cards, or show one with its data and rules text."""
    from meeple.core.errors import suggest
    from meeple.loading.pack import provisional_warnings
    game = arguments.load(game_name, generate=False)
    pack = game.pack
    if provenance:
        _provenance(pack, card_id)
        return
    if provisional:
        rows = [r for r in provisional_warnings(pack) if card_id is None or r[0] == card_id]
        for cid, fld, reason, span in rows:
            click.echo(f"{cid}.{fld}: {reason}  ({location(span)})")
        click.echo(f"{len(rows)} provisional value(s)")
        return
    if card_id:
        card = next((c for c in pack.cards if c.id == card_id), None)
        if card is None:
            click.echo(f"error: no card '{card_id}' in {game.id}" + (f"; {h}" if (h := suggest(card_id, [c.id for c in pack.cards])) else ""), err=True)
            sys.exit(ExitCode.USAGE)
        if generated:
            _generated(game, [card], lang)
        else:
            _show(game, card, lang)
    elif generated:
        _generated(game, list(pack.cards), lang)
    else:
        _list(game, lang)


@main.command()
@click.argument("game_name", metavar="GAME")
@click.option("--lang", default="en", show_default=True, help="language of the text (en, ja)")
@click.option("--width", type=click.IntRange(40, 400), default=80, show_default=True, help="wrap lines at this many columns")
def rules(game_name: str, lang: str, width: int) -> None:
    """How to play GAME: an overview, then the set-up, the turn, every action and
    the scoring, from the pack's howto file (an expansion: the base's, then what it changes)."""
    from meeple.play.howto import howto_lines, missing_locales
    game = arguments.load(game_name, generate=False)
    if missing_locales(game.pack, lang):
        click.echo(f"note: some of this text has no '{lang}' version; it is shown in English", err=True)
    click.echo("\n".join(howto_lines(game.pack, lang, width)))


def _show(game: Game, card: Any, lang: str) -> None:
    """``meeple cards GAME ID``: one card, its data, texts, rules and actions."""
    pack = game.pack
    click.echo(f"{card.names.get(lang)}  [{card.id}]  ({card.kind}, {card.copies} cop{'y' if card.copies == 1 else 'ies'})")
    others = [f"{loc}: {n}" for loc, n in card.names.by_locale if loc != lang]
    if others:
        click.echo("  " + "; ".join(others))
    for k, v in card.fields:
        click.echo(f"  {k}: {v}")
    if card.text.by_locale:
        click.echo(f"  text: {card.text.get(lang)}")
    from meeple.authoring.cardtext import card_lines
    from meeple.core.errors import printable
    made = card_lines(game, card, lang)
    if made:
        click.echo("  generated:\n" + "\n".join("    " + printable(line) for line in made))
    for hook, src in card.hooks:
        click.echo(f"  {hook}:\n" + _indent(src.text))
    for ev, src in card.handlers:
        click.echo(f"  when {ev}:\n" + _indent(src.text))
    for a in card.actions:
        click.echo(f"  action {a.id} ({a.names.get(lang)}), group {a.group}" + (f", {a.per_turn} per turn" if a.per_turn else ""))
        if a.text.by_locale:
            click.echo(f"    text: {a.text.get(lang)}")
        if a.when:
            click.echo(f"    when: {a.when.text.strip()}")
        if a.with_:
            click.echo(f"    with: {a.with_.text.strip()}")
        click.echo(_indent(a.effect.text, 6))
    for fld, cite, _ in card.sources:
        click.echo(f"  source of {fld}: {cite}")
    if card.provisional:        # the designer's notes, on asking: a player reads the card, not its doubts
        n = len(card.provisional)
        click.echo(f"  {n} provisional value{'' if n == 1 else 's'} ({', '.join(f for f, _ in card.provisional)}): "
                   f"meeple cards {pack.info.id} {card.id} --provisional")


def _list(game: Game, lang: str) -> None:
    """``meeple cards GAME``: the cards by kind, each with the data that differs from its kind's defaults."""
    by_kind: dict[str, list] = {}
    kinds = {k.name: k for k in game.defn.card_kinds}
    for c in game.pack.cards:
        by_kind.setdefault(c.kind, []).append(c)
    for kind, items in by_kind.items():
        each = sum(c.per_player for c in items)      # pieces: so many for every seat, not a number of cards
        click.echo(f"{kind} ({sum(c.copies for c in items)} cards, {len(items)} kinds"
                   + (f", {each} pieces per player" if each else "") + ")")
        defaults = {f.name: f.default for f in kinds[kind].fields}
        for c in items:
            data = ", ".join(f"{k} {v}" for k, v in c.fields
                             if v is not None and (defaults.get(k) is None or (v != defaults[k] and not str(defaults[k]).startswith("="))))
            flag = "  *" if c.provisional else ""
            many = f"x{c.copies:<2}" if not c.per_player else f"{c.per_player} per player"
            click.echo(f"  {c.id:<18} {c.names.get(lang):<16} {many} {data}{flag}")
    marked = sum(1 for c in game.pack.cards if c.provisional)
    if marked:       # the designer's notes in one line: what they are is on asking
        click.echo(f"* {marked} card{'' if marked == 1 else 's'} with provisional values (not settled by the sources): "
                   f"meeple cards {game.id} --provisional")


def _generated(game: Game, chosen: list, lang: str) -> None:
    """``meeple cards GAME [ID] --generated``: each card's name and the text made from its rules."""
    from meeple.authoring.cardtext import card_lines, lexicon
    from meeple.core.errors import printable
    lex = lexicon(game.pack)
    for card in chosen:
        click.echo(f"{printable(card.names.get(lang))}  [{card.id}]")
        for line in card_lines(game, card, lang, lex):
            click.echo("  " + printable(line))     # content words and labels, control codes escaped


def _provenance(pack: Any, card_id: Optional[str]) -> None:
    """``meeple cards GAME [ID] --provenance``: one line a value (card, field, value, status,
    citation or reason, where), then the count of numbers by status for each card kind."""
    from meeple.core.errors import printable, suggest
    from meeple.loading.pack import provenance
    from meeple.loading.citations import references_named
    rows = provenance(pack)
    if card_id:
        rows = [r for r in rows if r.who == card_id]
        if not rows and not any(c.id == card_id for c in pack.cards):
            click.echo(f"error: no card '{card_id}' in {pack.info.id}" + (f"; {h}" if (h := suggest(card_id, [c.id for c in pack.cards])) else ""), err=True)
            sys.exit(ExitCode.USAGE)
    for r in rows:
        value = "" if r.value is None else f" = {printable(str(r.value))}"
        detail = f": {r.detail}" if r.detail else ""
        click.echo(f"{r.who}.{r.what}{value}  {r.status}{detail}  ({location(r.span)})")
    counts: dict[str, dict[str, int]] = {}
    for r in rows:
        if r.value is not None:
            tally = counts.setdefault(r.kind, {"cited": 0, "provisional": 0, "unmarked": 0})
            tally[r.status] += 1
    click.echo("numbers by kind: cited / provisional / unmarked")
    total = {"cited": 0, "provisional": 0, "unmarked": 0}
    for kind, tally in counts.items():
        click.echo(f"  {kind:<14} {tally['cited']:>4} {tally['provisional']:>4} {tally['unmarked']:>4}")
        for k in total:
            total[k] += tally[k]
    click.echo(f"  {'all':<14} {total['cited']:>4} {total['provisional']:>4} {total['unmarked']:>4}")
    used = {ref for r in rows if r.status == "cited" for ref in references_named(r.detail)}
    if used:
        click.echo("references:")
        for ref in pack.references:
            if ref.id in used:
                click.echo(f"  {ref.id}: {printable(ref.describe())}")


def _indent(text: str, n: int = 4) -> str:
    return "\n".join(" " * n + line for line in text.rstrip().splitlines())
