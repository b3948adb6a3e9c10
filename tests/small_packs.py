"""A pack written from its files' texts and loaded, for tests that need a few lines of rules."""
from __future__ import annotations

import shutil
from pathlib import Path

from meeple.core.errors import Problems
from meeple.loading.pack import read_pack
from meeple.runtime.game import Game


def load_small(root: Path, pack_id: str, files: dict[str, str]) -> Game:
    """The pack ``pack_id`` of ``files`` (name -> text, beside its pack.yaml) in ``root``,
    loaded to play; its loading reports no error."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pack.yaml").write_text(f'kind: pack\nid: {pack_id}\nname: {pack_id.title()}\nversion: "0.1"\n', encoding="utf-8")
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    problems = Problems()
    game = Game(read_pack(root, problems), problems)
    assert not problems.errors, problems.errors
    return game


def shipped_with(tmp_path: Path, pack_id: str, old: str, new: str) -> tuple[Path, int]:
    """A copy of shipped pack ``pack_id`` whose game.yaml has ``old`` (there once) put as
    ``new``: the copy's folder and the line of the change, for a test of where an error is
    reported."""
    pack = tmp_path / pack_id
    shutil.copytree(Path(__file__).resolve().parent.parent / "content" / pack_id, pack)
    text = (pack / "game.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    (pack / "game.yaml").write_text(text.replace(old, new), encoding="utf-8")
    return pack, text[:text.index(old)].count("\n") + 1


def validated_with(tmp_path: Path, pack_id: str, old: str, new: str) -> tuple[int, str, int, Path]:
    """``meeple validate`` of the copy ``shipped_with`` makes: its exit code and output,
    the line of the change and the copy's folder."""
    from click.testing import CliRunner
    from meeple.cli import main
    pack, line = shipped_with(tmp_path, pack_id, old, new)
    r = CliRunner().invoke(main, ["validate", str(pack)])
    return r.exit_code, r.output, line, pack
