"""A pack written from its files' texts and loaded, for tests that need a few lines of rules."""
from __future__ import annotations

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
