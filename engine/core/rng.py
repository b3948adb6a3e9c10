"""A small seeded random generator whose whole state is one integer.

splitmix64: fast, good enough for games, identical on every platform and
Python version, and trivially cloned and serialised with the game state
(``random.Random``'s state is 625 words and version-dependent).
"""
from __future__ import annotations

MASK = (1 << 64) - 1


def next_u64(state: int) -> tuple[int, int]:
    """Return (new_state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def seed_state(seed: int) -> int:
    return (seed * 0x2545F4914F6CDD1D + 0x1234567) & MASK
