"""``_jit.borrow``: a kernel's view of its work arrays without reference counts."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from numba import njit

from spades.search._jit import borrow, borrow_all


@njit(cache=False)
def _bump_rows(a: np.ndarray, times: int) -> int:
    """Write through a borrowed array and through row views of it, as the kernels do."""
    b = borrow(a)
    total = 0
    for _ in range(times):
        for d in range(b.shape[0]):
            row = b[d]
            row[0] += 1
            total += row.shape[0]
    return total


def test_borrowed_array_shares_the_data_and_counts_nothing() -> None:
    a = np.zeros((6, 3), dtype=np.int64)
    before = sys.getrefcount(a)
    assert _bump_rows(a, 1000) == 6 * 3 * 1000
    # The writes went to the caller's array, and no reference was left behind or taken away.
    assert a[:, 0].tolist() == [1000] * 6
    assert a[:, 1:].sum() == 0
    assert sys.getrefcount(a) == before


@njit(cache=False)
def _fill_each(bufs: tuple[np.ndarray, np.ndarray]) -> int:
    """Borrow a tuple of arrays of two shapes, as a search borrows its ``bufs``."""
    grid, row = borrow_all(bufs)
    grid[1, 2] = 7
    row[3] = 5
    size: int = grid.shape[0] * 10 + row.shape[0]
    return size


def test_borrow_all_borrows_each_array_of_a_tuple() -> None:
    grid = np.zeros((3, 4), dtype=np.int64)
    row = np.zeros(6, dtype=np.int64)
    counts = (sys.getrefcount(grid), sys.getrefcount(row))
    assert _fill_each((grid, row)) == 36
    assert grid[1, 2] == 7 and grid.sum() == 7
    assert row[3] == 5 and row.sum() == 5
    assert (sys.getrefcount(grid), sys.getrefcount(row)) == counts


def test_borrow_refuses_what_is_not_an_array() -> None:
    # The kernels only ever hand it int64 arrays; anything else is refused at typing.
    @njit(cache=False)
    def f(x: int) -> int:
        return borrow(x)  # type: ignore[arg-type, return-value]

    with pytest.raises(Exception, match="borrow"):  # numba's TypingError
        f(3)
