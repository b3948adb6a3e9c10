"""The documented bounds on pack files (docs/limits.md, "Pack files"): what the loader
refuses before it parses, so a hostile or mistaken pack is reported at once,
located, instead of taking minutes or all the memory.

Every number is far above what the shipped packs use (their largest file is
28 KB, their largest pack 76 KB in 14 files, their deepest YAML 10 levels; no
pack extends more than one other), and each message names its limit.
"""
from __future__ import annotations

from meeple.dsl.limits import MAX_INT  # noqa: F401  (re-export: YAML numbers share the language's bound)

# One YAML file of a pack (or a scenario file) is at most this many bytes;
# a bigger one is refused before it is read.
MAX_FILE_BYTES = 256 * 1024

# One pack folder holds at most this many YAML files, of at most this many
# bytes together.
MAX_PACK_FILES = 200
MAX_PACK_BYTES = 512 * 1024

# YAML values nest at most this deep (a mapping in a list in a mapping ... is
# one level each; the top of the file is level 1).
MAX_YAML_DEPTH = 64

# Aliases (*name) may repeat at most this many values in one file, counting
# every value inside a repeated list or mapping (so an "alias bomb", anchors
# that repeat each other, is refused before it is built).
MAX_ALIAS_COPIES = 10_000

# At most this many packs in one load: a pack, what it extends, what that
# extends, and so on, together.
MAX_PACKS = 32

# A name in extends: (a pack id or a path from the pack's folder) is at most
# this many chars.
MAX_PACK_NAME = 255
