"""The kernels' bit helpers (LLVM's ``ctpop``/``cttz`` inside numba) against Python's ints."""

from __future__ import annotations

import numba
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.search._jit import lowest_bit, nth_bit, popcount

masks = st.integers(min_value=1, max_value=(1 << 52) - 1)


@numba.njit(cache=False)
def _inside_a_kernel(x: int, k: int) -> tuple[int, int, int]:
    return popcount(x), lowest_bit(x), nth_bit(x, k)


@settings(deadline=None)  # the first example compiles _inside_a_kernel
@given(masks, st.data())
def test_bit_helpers_agree_with_python_inside_and_outside_kernels(x: int, data: st.DataObject) -> None:
    bits = [i for i in range(52) if x >> i & 1]
    k = data.draw(st.integers(min_value=0, max_value=len(bits) - 1))
    expected = (len(bits), bits[0], bits[k])
    assert (popcount(x), lowest_bit(x), nth_bit(x, k)) == expected
    assert _inside_a_kernel(x, k) == expected


def test_bit_helpers_on_the_edges() -> None:
    assert popcount(0) == 0
    assert lowest_bit(1 << 51) == 51
    assert popcount((1 << 52) - 1) == 52
    assert _inside_a_kernel(1 << 51, 0) == (1, 51, 51)
