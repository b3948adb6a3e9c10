"""The documented bounds on what a pack may write (docs/limits.md, "The effect language").

One place for the numbers, so the effect language and the YAML loader agree:
every check that refuses something too big names the limit from here, and
the message says which limit it is and where the text goes past it.
"""
from __future__ import annotations

# A whole number written in a pack (a YAML value or a number in the effect
# language) is at most this large in size: |n| <= MAX_INT. Far beyond any
# printed game, and far below Python's 4,300-digit limit on reading numbers.
MAX_INT = 10**15

# One text of the effect language (an effect, a condition, a card's hook) is
# at most this many chars long; a longer one is refused before parsing.
MAX_TEXT = 10_000

# Levels of nesting in one text of the effect language: brackets of calls and
# lists, 'not', '-', 'if ... then ... else', '.field' and 'of', each operand of
# an operator, each indented block. A chain of one kind of operator
# ('a + b - c', 'x and y and z') is one level however long it is. A pack's
# function with the functions it uses (their bodies counted one inside the
# other) nests at most as deep. Well below what Python's own parser takes of
# the rules generated from it, and what the compiler's passes recurse.
MAX_DEPTH = 64

# Parts (nodes of the syntax tree) that functions expand to in one text: a
# function's body is copied wherever it is used, so functions using functions
# several times each would otherwise grow without bound.
MAX_EXPANSION = 10_000
