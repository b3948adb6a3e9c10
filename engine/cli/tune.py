"""``meeple tune SPEC.yaml``: which values of the cards and constants a spec lets move
make its objective smallest, confirmed on fresh games (meeple.workbench.tune).

Optuna is an optional extra (``meeple[tune]``): without it the command says how to
install it (exit 2), and nothing else of meeple imports it. Ctrl-C (or SIGTERM) stops
the search between blocks of games; what finished is printed, and the same command
resumes it from the study kept beside the spec.
"""
from __future__ import annotations

import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Optional

import click

from meeple.cli import arguments
from meeple.cli.files import folder_failed
from meeple.cli.group import ExitCode, fail, main, stop_code
from meeple.core.errors import MeepleError, PackInvalid


@main.command("tune")
@click.argument("spec_path", metavar="SPEC.yaml")
@click.option("--seed", type=click.IntRange(0, 10 ** 9), default=None, help="the search's seed (default: the spec's, else 0)")
@click.option("--workers", default="auto", show_default=True, help="worker processes, or 'auto' (one per core)")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="local processes, or a Ray cluster (needs: pip install 'meeple[ray]')")
@click.option("--address", default="", help="with --backend ray: the cluster's HOST:PORT (default: start a local Ray)")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--write-patch", "patch_dir", type=click.Path(file_okay=False), default=None,
              help="write the confirmed values as an extension pack in this new folder")
def tune_cmd(spec_path: str, seed: Optional[int], workers: str, backend: str, address: str, fmt: str,
             patch_dir: Optional[str]) -> None:
    """Search the values SPEC.yaml lets move (cards' fields and constants, named as
    --set names them) for the lowest objective (fair seats, cards of a zone winning alike, a card's
    effect near zero, a game length, skill rewarded), with Optuna: every point of a
    small grid, else TPE, pruning settings worse than the best (Wilcoxon, on the same
    games). The best settings are then compared with the pack as written on fresh games,
    and only those the confirmation supports are called better. The study is kept
    beside the spec: run the command again to resume it. Needs: pip install 'meeple[tune]'."""
    from meeple.workbench.tune import OptunaMissing, Tuner, optuna_module, partial, tune
    from meeple.workbench.tunereport import format_text
    from meeple.workbench.tunespec import read_spec
    try:
        optuna_module()
    except OptunaMissing as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(ExitCode.USAGE)
    if patch_dir is not None and Path(patch_dir).exists():
        click.echo(f"error: --write-patch: {patch_dir} already exists; name a new folder", err=True)
        sys.exit(ExitCode.USAGE)
    try:
        spec, game = read_spec(spec_path)
    except PackInvalid as err:
        fail(err, ExitCode.CONTENT_INVALID)
    if seed is not None:
        spec = replace(spec, seed=seed)
    say = (lambda text: click.echo(text, err=True)) if sys.stderr.isatty() else None
    tuner = Tuner(spec, game, arguments.workers(workers), backend, address, say)
    start = time.perf_counter()
    try:
        d = tune(tuner)
    except KeyboardInterrupt:
        _stopped(partial(tuner, time.perf_counter() - start), fmt)
    except MeepleError as err:
        fail(err, ExitCode.CONTENT_INVALID)
    except RuntimeError as err:          # the Ray backend without Ray
        click.echo(f"error: {err}", err=True)
        sys.exit(ExitCode.USAGE)
    if any(c["compare"].get("interrupted") for c in d["confirmations"]):
        _stopped(dict(d, interrupted=True), fmt)
    click.echo(json.dumps(d, indent=2, default=str) if fmt == "json" else format_text(d))
    if patch_dir is not None:
        _write_patch(spec, game, d, Path(patch_dir))


def _stopped(d: dict, fmt: str) -> None:
    """A run stopped by Ctrl-C, SIGTERM or a lost worker: what finished, how to resume, its exit code."""
    from meeple.workbench.stops import stopped
    from meeple.workbench.tunereport import format_text
    click.echo(json.dumps(d, indent=2, default=str) if fmt == "json" else format_text(d))
    stop = stopped()
    click.echo(f"{stop or 'interrupted'}: run the same command again to resume (the study is kept in {d['storage']})", err=True)
    sys.exit(stop_code(stop))


def _write_patch(spec, game, d: dict, target: Path) -> None:
    from meeple.authoring.patch import write_patch
    chosen = d["chosen"]
    if chosen is None:
        click.echo(f"--write-patch: nothing written to {target}: no setting is better than the pack as written", err=True)
        return
    note = (f"Confirmed on {chosen['games']} fresh pairs of games: objective {chosen['candidate']:.4f} "
            f"against {chosen['as_written']:.4f} as written.")
    try:
        files = write_patch(spec.pack, game, tuple(chosen["sets"]), target, note)
    except OSError as err:
        folder_failed(err, target)
    click.echo(f"wrote {target}: {', '.join(f.name for f in files)} (load it as {target}, or compare it: "
               f"meeple compare {spec.pack} {target} -p {spec.players})", err=True)
