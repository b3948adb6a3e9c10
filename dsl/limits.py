"""The documented bounds on what a pack may write (README, "Limits").

One place for the numbers, so the effect language and the YAML loader agree:
every check that refuses something too big names the limit from here.
"""
from __future__ import annotations

# A whole number written in a pack (a YAML value or a number in the effect
# language) is at most this large in size: |n| <= MAX_INT. Far beyond any
# printed game, and far below Python's 4,300-digit limit on reading numbers.
MAX_INT = 10**15
