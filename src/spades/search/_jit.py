"""numba's ``njit`` with the on-disk cache on, the small bit tools every kernel shares, and
``borrow``/``borrow_all``, which spare the search loops numba's reference counting.

All masks inside kernels are ``int64`` (52 bits fit, and signed ints never turn into floats
when mixed with Python ints, which ``uint64`` does in numba). Each bit helper here is itself
a jitted function, so kernels inline-call it; from plain Python it is a compiled call
(``popcount`` and ``lowest_bit`` are LLVM intrinsics, so they have no plain-Python body).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar, cast

import llvmlite.ir
import numba
import numba.core.cgutils
import numba.extending
import numpy as np

F = TypeVar("F", bound=Callable[..., Any])
Int64Array = np.ndarray[Any, np.dtype[np.int64]]


def njit(fn: F) -> F:
    """Compile in nopython mode with the on-disk cache, so a process pays the compile once ever."""
    return numba.njit(cache=True, error_model="numpy")(fn)  # type: ignore[return-value,unused-ignore]


def njit_inline(fn: F) -> F:
    """``njit``, and inlined into each jitted caller by numba itself (at its IR level) rather
    than called: for the small helpers the search loops run at every node, where a call
    measured slower than the copy it replaced. (Called from plain Python it is a function.)"""
    return numba.njit(cache=True, error_model="numpy", inline="always")(fn)  # type: ignore[return-value,unused-ignore]


def _borrowed(context: Any, builder: Any, arr: Any, value: Any) -> Any:
    """An array struct of type ``arr`` sharing ``value``'s data, with a null ``meminfo``."""
    src = context.make_array(arr)(context, builder, value=value)
    dst = context.make_array(arr)(context, builder)
    for name in ("nitems", "itemsize", "data", "shape", "strides"):
        setattr(dst, name, getattr(src, name))
    null = cast(Any, numba.core.cgutils).get_null_value
    dst.meminfo = null(dst.meminfo.type)
    dst.parent = null(dst.parent.type)
    return dst._getvalue()


@numba.extending.intrinsic
def _borrow(typingctx: Any, arr: Any) -> Any:
    """The same array with no reference count (``meminfo`` null, as ``numba.carray`` gives).

    numba counts references to an array atomically: each jitted call with array arguments
    counts each one up on entry and down on every exit, and each row view (``a[d]``) does the
    same. In the search loops, which call their helpers at every node, that was 43% of the
    trick solver's CPU. A kernel borrows its work arrays once at the top of the search and
    hands the borrowed ones down: counting a borrowed array is a test of a null pointer. Sound
    only for arrays that outlive the call (the solvers' own buffers, held by their Python
    objects, and the hands the driver made) and are never returned or stored."""
    if not isinstance(arr, numba.types.Array):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return _borrowed(context, builder, arr, args[0])

    return arr(arr), codegen


@numba.extending.intrinsic
def _borrow_all(typingctx: Any, arrays: Any) -> Any:
    """``_borrow`` for each array of a tuple (a kernel's ``bufs``), in one line."""
    kinds: list[Any] = list(cast(Any, arrays)) if isinstance(arrays, numba.types.BaseTuple) else []
    if not kinds or not all(isinstance(a, numba.types.Array) for a in kinds):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        out = args[0]
        for i, arr in enumerate(kinds):
            item = builder.extract_value(args[0], i)
            out = builder.insert_value(out, _borrowed(context, builder, arr, item), i)
        return out

    return arrays(arrays), codegen


borrow = cast(Callable[[Int64Array], Int64Array], _borrow)
borrow_all = cast(Callable[[tuple[Int64Array, ...]], tuple[Int64Array, ...]], _borrow_all)


KERNEL_FILES = ("_jit.py", "_kernel_common.py", "_dd_kernel.py", "_score_kernel.py", "playout.py")
"""The sources of every cached kernel, in this directory. One kernel inlines others across
these files, but numba's cache checks only the file a function is in: edit a helper here
and the kernels that call it would load their old compiled copy. So the cache carries one
stamp of all five files, and a different stamp drops the whole lot (``drop_stale_cache``)."""

STAMP_NAME = "spades-kernels.stamp"


def kernels_stamp(folder: Path | None = None) -> str:
    """A hash of the kernel sources as they are now (missing files count as empty)."""
    here = folder if folder is not None else Path(__file__).resolve().parent
    h = hashlib.sha256(numba.__version__.encode())
    for name in KERNEL_FILES:
        path = here / name
        h.update(name.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"") + b"\0")
    return h.hexdigest()


def drop_stale_cache(cache_dir: Path, stamp: str, stems: Sequence[str]) -> bool:
    """Delete the cached kernels of modules ``stems`` in ``cache_dir`` when its stamp is not
    ``stamp`` (then write ``stamp``): they recompile on first use instead of running old
    code. Runs at import, before any kernel loads; a cache it cannot touch is left alone
    (numba then compiles in memory). Returns whether anything was dropped."""
    mark = cache_dir / STAMP_NAME
    try:
        if mark.read_text(encoding="ascii").strip() == stamp:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    dropped = False
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        for path in cache_dir.iterdir():
            if path.suffix in (".nbi", ".nbc") and path.name.split(".", 1)[0] in stems:
                path.unlink(missing_ok=True)
                dropped = True
        mark.write_text(stamp + "\n", encoding="ascii")
    except OSError:
        pass
    return dropped


def cache_dir_of(fn: Any) -> Path | None:
    """Where numba keeps ``fn``'s compiled code (None if the dispatcher has no disk cache)."""
    path = getattr(getattr(fn, "_cache", None), "_cache_path", None)
    return Path(path) if isinstance(path, str) else None


SUIT_FIELD = 0x1FFF
SPADES = 0x1FFF
NON_SPADES = ((1 << 52) - 1) ^ 0x1FFF


def _make_tables() -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    pop = np.zeros(1 << 13, dtype=np.int64)
    high = np.full(1 << 13, -1, dtype=np.int64)
    low = np.full(1 << 13, -1, dtype=np.int64)
    for f in range(1, 1 << 13):
        pop[f] = bin(f).count("1")
        high[f] = f.bit_length() - 1
        low[f] = (f & -f).bit_length() - 1
    return pop, high, low


POP13, HIGH13, LOW13 = _make_tables()
"""Per 13-bit suit field: number of cards, highest and lowest rank (-1 when empty)."""


def _as_int64(context: Any, builder: Any, value: Any, kind: Any) -> Any:
    return context.cast(builder, value, kind, numba.types.int64)


@numba.extending.intrinsic
def _ctpop_intrinsic(typingctx: Any, x: Any) -> Any:
    """LLVM's ``ctpop``: one ``popcnt`` instruction where the CPU has it (numba compiles for
    the host). LLVM did not turn the shift-and-add form this replaced into that instruction."""
    if not isinstance(x, numba.types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(_as_int64(context, builder, args[0], x))

    return numba.types.int64(x), codegen


@numba.extending.intrinsic
def _cttz_intrinsic(typingctx: Any, x: Any) -> Any:
    """LLVM's ``cttz`` (trailing zeros; 64 for zero): one ``tzcnt``/``bsf`` instruction."""
    if not isinstance(x, numba.types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        zero_is_defined = llvmlite.ir.Constant(llvmlite.ir.IntType(1), 0)
        return builder.cttz(_as_int64(context, builder, args[0], x), zero_is_defined)

    return numba.types.int64(x), codegen


_ctpop = cast(Callable[[int], int], _ctpop_intrinsic)
_cttz = cast(Callable[[int], int], _cttz_intrinsic)


@njit
def popcount(x: int) -> int:
    """Number of set bits of a non-negative int64."""
    return _ctpop(x)


@njit
def lowest_bit(x: int) -> int:
    """Index of the lowest set bit of a non-zero mask."""
    return _cttz(x)


@njit
def nth_bit(x: int, k: int) -> int:
    """Index of the ``k``-th (0-based, from the lowest) set bit of ``x``."""
    for _ in range(k):
        x &= x - 1
    return lowest_bit(x)


@njit
def field(h: int, s: int) -> int:
    """Suit ``s``'s 13-bit field of a card mask (bit ``r`` = rank ``r``)."""
    f: int = (h >> (13 * s)) & 0x1FFF
    return f


@njit
def beats(card: int, best: int) -> bool:
    """Whether ``card`` beats ``best`` (the trick's best so far): higher in its suit, or a spade
    on another suit."""
    s = card // 13
    bs = best // 13
    return (s == bs and card > best) or (s == 0 and bs != 0)


@njit
def trick_winner(c0: int, c1: int, c2: int, c3: int) -> int:
    """Offset (0..3) from the leader of the card that wins a full trick."""
    best = c0
    bi = 0
    for i in range(1, 4):
        c = c1 if i == 1 else (c2 if i == 2 else c3)
        s = c // 13
        bs = best // 13
        if (s == bs and c > best) or (s == 0 and bs != 0):
            best = c
            bi = i
    return bi


def _drop_stale() -> None:
    where = cache_dir_of(popcount)
    if where is not None:
        drop_stale_cache(where, kernels_stamp(), [n.removesuffix(".py") for n in KERNEL_FILES])


_drop_stale()
