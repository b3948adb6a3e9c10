"""Commands that check and describe packs without playing them: ``validate``
(every error of every pack named, as text or JSON), ``schema`` (the JSON
Schemas, printed or exported), ``diff`` (what one pack changes of another) and
``compile`` (the Python a pack's rules run as, to read).
"""
from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

import click

from meeple.cli import arguments
from meeple.cli.files import OutputFile, write_or_exit
from meeple.cli.group import ExitCode, fail, main, usage
from meeple.core.errors import MeepleError, Problems, UsageError, as_json, location, render
from meeple.runtime.game import load_game


@dataclass(frozen=True)
class _Checked:
    """One pack named to ``validate``, checked: what ``validate`` reports of it."""

    name: str
    pack: Any                   # the pack read, or None when it could not be
    game: Any                   # the compiled game, or None when it did not compile
    problems: Problems
    warnings: list              # provisional values: (card id, field, reason, span)
    seconds: float
    hidden: tuple[int, int]     # provisional values, other warnings: hidden as located in base packs


@main.command()
@click.argument("packs", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--only-mine", is_flag=True,
              help="Hide the warnings (provisional values) located in the packs a pack extends; the summary counts them.")
@click.option("--maybe-none", is_flag=True,
              help="Also warn of every use of a value that may be none (first, random, top, min, max, holder, host, "
                   "a plain choose) with no test of it: many are safe by the pack's data.")
def validate(packs: tuple[str, ...], fmt: str, only_mine: bool, maybe_none: bool) -> None:
    """Check packs: YAML, schemas, references and every DSL text. Exit 1 on any error."""
    report = [_check(name, only_mine, maybe_none) for name in packs]
    if fmt == "json":
        out = [_as_json(c) for c in report]
        click.echo(json.dumps(out if len(out) > 1 else out[0], indent=2, ensure_ascii=False))
    else:
        for c in report:
            _say(c, only_mine)
    sys.exit(ExitCode.CONTENT_INVALID if any(c.problems.errors for c in report) else ExitCode.OK)


def _check(name: str, only_mine: bool, maybe_none: bool) -> _Checked:
    """Read and compile one pack, collecting every problem (a pack that cannot be
    found is a usage error, at once)."""
    from meeple.runtime.game import check_pack
    from meeple.loading.folders import resolve_all
    from meeple.loading.pack import provisional_warnings, read_packs
    try:
        roots = resolve_all(name)
    except UsageError as err:
        usage(err)
    start = time.perf_counter()
    problems = Problems()
    pack = read_packs(roots, problems)
    game = check_pack(pack, problems, maybe_none) if pack is not None else None
    if game is not None and not problems.errors:
        from meeple.authoring.cardtext import number_warnings
        problems.warnings += number_warnings(pack)     # texts naming numbers their rules do not
    seconds = time.perf_counter() - start
    warnings = provisional_warnings(pack) if pack is not None else []
    hidden = (0, 0)      # provisional values, other warnings: hidden as located in base packs
    if only_mine and pack is not None:
        in_base = _in_base_pack(pack, roots)
        kept = [w for w in warnings if not in_base(w[3].file)]
        others = [w for w in problems.warnings if not in_base(w.span.file)]
        hidden = (len(warnings) - len(kept), len(problems.warnings) - len(others))
        warnings, problems.warnings = kept, others
    return _Checked(name, pack, game, problems, warnings, seconds, hidden)


def _as_json(c: _Checked) -> dict[str, Any]:
    """``validate --format json``: one pack's entry."""
    pack, problems = c.pack, c.problems
    return {
        "pack": c.name, "valid": not problems.errors, "seconds": round(c.seconds, 4),
        "errors": [as_json(e) for e in problems.errors],
        "warnings": [as_json(w) for w in problems.warnings] +
                    [{"severity": "warning", "file": s.file, "line": s.line, "col": s.col,
                      "message": f"provisional value {cid}.{fld}: {reason}"} for cid, fld, reason, s in c.warnings],
        "held_back": [as_json(e) for e in problems.hidden],
        "base_provisional_hidden": c.hidden[0], "base_warnings_hidden": c.hidden[1],
        "compiled": c.game is not None,
        "cards": len(pack.cards) if pack else 0,
        "load_order": [{"pack": i, "version": v} for i, v, _ in pack.load_order] if pack else [],
    }


def _say(c: _Checked, only_mine: bool) -> None:
    """``validate`` as text: one pack's errors and warnings located, then its summary line."""
    name, pack, problems, warnings, hidden = c.name, c.pack, c.problems, c.warnings, c.hidden
    also = (f"; {hidden[0]} provisional value(s) in base packs hidden" +
            (f" (and {hidden[1]} other warning(s))" if hidden[1] else "")) if only_mine else ""
    for e in problems.errors:
        click.echo(render(e))
    for w in problems.warnings:
        click.echo(render(w))
    for cid, fld, reason, span in warnings:
        click.echo(f"{location(span)}: warning: provisional value {cid}.{fld}: {reason}")
    if pack is not None and len(pack.load_order) > 1:
        click.echo(f"{name}: load order " + " -> ".join(f"{i} {v}" for i, v, _ in pack.load_order))
    if problems.hidden:
        click.echo(f"{name}: note: {_held_back(problems)}")
    if problems.declarations_broken:
        click.echo(f"{name}: note: the rule texts were not compiled, as the declarations they use have errors (above)")
    if problems.errors:
        click.echo(f"{name}: {len(problems.errors)} error(s), {len(warnings)} provisional value(s){also}")
        return
    kinds: dict[str, list[int]] = {}
    for card in pack.cards:
        counts = kinds.setdefault(card.kind, [0, 0])
        counts[0] += card.copies
        counts[1] += card.per_player
    what = ", ".join(f"{n} {k}" if not per else (f"{per} {k} per player" if not n else f"{n} {k} + {per} per player")
                     for k, (n, per) in kinds.items())
    click.echo(f"{name}: valid ({pack.info.id} {pack.info.version}: {what}; {len(c.game.codes)} rule texts compiled) "
               f"in {c.seconds:.2f} s; {len(warnings)} provisional value(s){also}")


def _in_base_pack(pack: Any, roots: list[Path]) -> Callable[[str], bool]:
    """Whether a file (as a span names it) lies in a pack that the packs named on the
    command line extend (the innermost pack folder holding it decides)."""
    mine = {Path(r).resolve() for r in roots}
    layers = [Path(root).resolve() for _, _, root in pack.load_order if not root.startswith("<")]

    def in_base(file: str) -> bool:
        try:
            path = Path(file).resolve()
        except (OSError, RuntimeError, ValueError):
            return False
        owner = max((r for r in layers if path.is_relative_to(r)), key=lambda r: len(r.parts), default=None)
        return owner is not None and owner not in mine
    return in_base


def _held_back(problems: Problems) -> str:
    """The one line saying which errors were not shown: those that only name what a
    part left out for its own error declared."""
    from meeple.core.errors import _MISSING_NAME
    names = sorted({n for e in problems.hidden for n in _MISSING_NAME.findall(e.message) if n in problems.left_out})
    shown = ", ".join(f"'{n}'" for n in names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return (f"{len(problems.hidden)} more error(s) not shown: they name {shown}, declared in a part left out "
            "for the errors above; fix those first")


@main.command()
@click.argument("kind", required=False)
@click.option("--export", "export_dir", type=click.Path(file_okay=False), default=None, help="write the schemas into this folder")
@click.option("--pack", "pack_spec", default=None, metavar="GAME",
              help="the schemas of this pack's files: cards, rules and scenarios narrowed by its declarations")
def schema(kind: Optional[str], export_dir: Optional[str], pack_spec: Optional[str]) -> None:
    """Print the JSON Schema of a YAML kind (pack, game, rules, cards, scenario, howto) or of
    game logs (log), or all of them; with --pack GAME, the schemas of that pack's files."""
    from meeple.loading.schemas import KINDS, pack_schema, schema as get
    every = KINDS + ("log",)
    if kind and kind not in every:
        click.echo(f"error: no kind '{kind}' (kinds: {', '.join(every)})", err=True)
        sys.exit(ExitCode.USAGE)
    kinds = [kind] if kind else list(every)
    if pack_spec is not None:
        try:
            pack = load_game(pack_spec, generate=False).pack
        except UsageError as err:
            fail(err, ExitCode.USAGE)
        except MeepleError as err:
            fail(err, ExitCode.CONTENT_INVALID)
        get = lambda k: pack_schema(pack, k)      # noqa: E731
    if export_dir:
        def export() -> None:
            from meeple.core.outputs import write_text
            Path(export_dir).mkdir(parents=True, exist_ok=True)
            for k in kinds:         # each file whole, or as it was
                write_text(Path(export_dir) / f"{k}.schema.json", json.dumps(get(k), indent=2, ensure_ascii=False) + "\n")
        write_or_exit(export_dir, export)
        click.echo(f"wrote {len(kinds)} schema(s) to {export_dir}")
        return
    click.echo(json.dumps(get(kinds[0]) if kind else {k: get(k) for k in kinds}, indent=2, ensure_ascii=False))


@main.command()
@click.argument("pack_a")
@click.argument("pack_b")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def diff(pack_a: str, pack_b: str, fmt: str) -> None:
    """What PACK_B adds, replaces, changes and removes against PACK_A, card by card and rule by rule."""
    from meeple.authoring.diff import diff_packs, render
    a, b = arguments.load(pack_a, generate=False), arguments.load(pack_b, generate=False)
    d = diff_packs(a.pack, b.pack)
    click.echo(json.dumps(d, indent=2, ensure_ascii=False, default=str) if fmt == "json" else render(d))


@main.command("compile")
@click.argument("game_name", metavar="GAME")
@click.option("-o", "--output", type=OutputFile(), default=None, help="write the module to this file (default: print it)")
def compile_cmd(game_name: str, output: Optional[str]) -> None:
    """Print the Python that GAME's rules run as: the module generated for a game, each
    function after a comment naming its rule and YAML file:line (meeple validate generates
    nothing). For reading: its names are bound to the pack's tables as it is compiled, so it
    does not run on its own. Tracebacks (meeple --debug) show its lines as <meeple:ID rules>."""
    source = arguments.load(game_name).pygen.source
    if output is None:
        click.echo(source, nl=False)
        return

    def write() -> None:
        from meeple.core.outputs import write_text
        write_text(output, source)
    write_or_exit(output, write)
    click.echo(f"wrote {output}: {source.count(chr(10))} lines, {source.count(chr(10) + 'def ')} functions")      # each after its comment
