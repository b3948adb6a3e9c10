"""The game's random generator (one integer of state, the same draws everywhere) and other small runtime helpers."""
import pytest

from meeple.core.rng import next_u64, seed_state
from meeple.runtime.state import State


def test_splitmix64_gives_its_published_first_outputs():
    # splitmix64 from state 0: the reference implementation's first three outputs
    st, out = 0, []
    for _ in range(3):
        st, x = next_u64(st)
        out.append(x)
    assert out == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@pytest.mark.parametrize("n", [0, 1, 2, 8, 54, 300])
def test_shuffle_is_fisher_yates_over_rand_below(n):
    """``State.shuffle`` writes the generator out for speed; it must draw exactly what
    ``rand_below`` would and leave the generator where it would."""
    a, b = State(None, 2), State(None, 2)
    a.rng = b.rng = seed_state(n + 7)
    items_a, items_b = list(range(n)), list(range(n))
    a.shuffle(items_a)
    for i in range(n - 1, 0, -1):
        j = b.rand_below(i + 1)
        items_b[i], items_b[j] = items_b[j], items_b[i]
    assert items_a == items_b and a.rng == b.rng
    assert sorted(items_a) == list(range(n))


# ---------------------------------------------------------------- per-turn use counts
@pytest.mark.parametrize("used, key, count, after", [
    ([], 5, 0, [5, 1]),
    ([5, 1], 5, 1, [5, 2]),
    ([0, 1, 1, 3], 1, 3, [0, 1, 1, 4]),      # a count equal to a key is not a key
    ([2, 1], 1, 0, [2, 1, 1, 1]),
    ([7, 2, 9, 1], 9, 1, [7, 2, 9, 2]),
])
def test_uses_per_turn_are_flat_key_count_pairs(used, key, count, after):
    from meeple.dsl.types import used_once_more, uses
    before = list(used)
    assert uses(used, key) == count
    assert used_once_more(used, key) == after
    assert used == before            # the old list may be shared with a clone: never changed
