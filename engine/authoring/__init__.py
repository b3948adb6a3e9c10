"""Writing packs: scenarios (rules tests), scaffolds for new games and packs, pack diffs and card text."""
