"""Batch parser of hand text (numba): the bytes of N strings in, HandBatch arrays out.

The kernel reads the common part of the hand grammar of :func:`mjstats.parse_hand`
(``docs/notation.md``) straight from the bytes: ASCII MPSZ groups and honour
letters, melds ``[...]``/``{...}``, ``+`` and the winning tile, and the ASCII
context keywords given to it as a table (:func:`keyword_tables` in
:mod:`mjstats.text`). A row it reads is fully checked (syntax, five copies,
size, copies counting the melds, contradicting keywords) and gets status
:data:`OK`. Anything else (another notation, a non-ASCII byte, a flower name,
any error at all) gets :data:`DEFER`: the wrapper hands that row to
``parse_hand`` itself, so results and error messages are those of
``parse_hand`` by construction, and the kernel never needs an error message.

Layout: ``buf`` uint8 holds all rows; row ``r`` is ``buf[starts[r]:ends[r]]``.
Outputs are the (zeroed) HandBatch arrays and ``status`` uint8 (N,).
``parse_rows`` runs rows in ``prange``; ``parse_rows_serial`` is the same loop
without threads, for small batches.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from mjstats._readonly import read_only
from mjstats.kernels._jit import hjit, ijit, jit, pjit

__all__ = ["DEFER", "KIND_FLAG", "KIND_SITUATION", "KIND_VALUE", "OK", "parse_rows"]

OK = 0
"""Status of a row the kernel read completely; its outputs are a valid hand."""
DEFER = 1
"""Status of a row the kernel leaves to ``parse_hand`` (other notation, or an error)."""

KIND_FLAG = 0  # keyword table kinds: a flag keyword (a: fields set, b: their values)
KIND_SITUATION = 1  # a named situation bit (a: the bit)
KIND_VALUE = 2  # ``key=value`` (a: 0 seat, 1 round, 2 flowers, 3 situation)

_BLOCK = 1024  # rows per prange task

_LETTER_TILE = np.full(128, -1, dtype=np.int8)
for _i, _ch in enumerate("ESWNPFC"):
    _LETTER_TILE[ord(_ch)] = 27 + _i
_SUIT = np.full(128, -1, dtype=np.int8)
for _i, _ch in enumerate("mpsz"):
    _SUIT[ord(_ch)] = _i
_LETTER_TILE = read_only(_LETTER_TILE)
_SUIT = read_only(_SUIT)


@ijit
def _is_space(c):
    return c == 32 or 9 <= c <= 13


@ijit
def _token(buf, j, hi, tile_char):
    """The next whitespace-separated token at or after ``j``: (start, end, position
    of its first ``=`` or -1, whether it is made of tile characters only)."""
    while j < hi and _is_space(buf[j]):
        j += 1
    k = j
    eq = -1
    tiles = True
    while k < hi and not _is_space(buf[k]):
        c = buf[k]
        if c >= 127 or c < 32:
            return j, k, -2, False  # not ASCII text (or a control byte): defer the row
        if eq < 0 and c == 61:
            eq = k
        if not tile_char[c]:
            tiles = False
        k += 1
    return j, k, eq, tiles


@ijit
def _match(buf, lo, hi, table, lens, keyword):
    """Index of the table entry equal to ``buf[lo:hi]`` (lower-cased; ``_`` as ``-``
    when ``keyword``), or -1."""
    n = hi - lo
    for k in range(table.shape[0]):
        if lens[k] != n:
            continue
        same = True
        for j in range(n):
            c = buf[lo + j]
            if 65 <= c <= 90:
                c += 32
            elif keyword and c == 95:
                c = 45
            if c != table[k, j]:
                same = False
                break
        if same:
            return k
    return -1


@ijit
def _number(buf, lo, hi, cap):
    """Decimal digits ``buf[lo:hi]`` as an int, or -1 if not all digits or above ``cap``."""
    if hi <= lo:
        return -1
    v = 0
    for j in range(lo, hi):
        c = buf[j]
        if not 48 <= c <= 57:
            return -1
        v = v * 10 + (c - 48)
        if v > cap:
            return -1
    return v


@ijit
def _flowers(buf, lo, hi, table, lens, bits):
    """A ``flowers=`` value: a count 0-8, a mask ``0x..``, or names joined by ``,``
    or ``+`` (as :func:`mjstats.tiles.parse_flowers`); -1 for anything else."""
    n = _number(buf, lo, hi, 8)
    if n >= 0:
        return (1 << n) - 1
    if hi - lo > 2 and buf[lo] == 48 and (buf[lo + 1] == 120 or buf[lo + 1] == 88):
        v = 0
        for j in range(lo + 2, hi):
            c = buf[j] | 32  # lower case
            if 48 <= c <= 57:
                v = v * 16 + c - 48
            elif 97 <= c <= 102:
                v = v * 16 + c - 87
            else:
                return -1
            if v > 255:
                return -1
        return v
    mask = 0
    start = lo
    for j in range(lo, hi + 1):
        if j == hi or buf[j] == 44 or buf[j] == 43:  # , +
            k = _match(buf, start, j, table, lens, False)
            if k < 0 or mask >> bits[k] & 1:
                return -1
            mask |= 1 << bits[k]
            start = j + 1
    return mask


@ijit
def _tiles_section(buf, lo, stop, r, concealed, melds, win_tile, letter_tile, suit):
    """Read tiles, melds and ``+`` in ``buf[lo:stop]``; return the tile count before
    ``+`` counting 3 per meld, or -1 to defer. Writes concealed[r] (incl. the
    winning tile), melds[r] (unsorted) and win_tile[r]."""
    n_tiles = 0
    n_melds = 0
    pend = 0  # pending digits, starting at pstart
    pstart = 0
    in_meld = 0  # 0 no, 91 '[', 123 '{'
    m_n = 0
    m0 = m1 = m2 = m3 = 0
    win = -1
    j = lo
    while j < stop:
        c = buf[j]
        if 49 <= c <= 57:
            if pend == 0:
                pstart = j
            pend += 1
            j += 1
            continue
        first = j  # the tiles of this step are the pending digits or one letter
        s = -1
        if c < 128 and suit[c] >= 0:
            if pend == 0:
                return -1
            first = pstart
            s = suit[c]
        elif pend:
            return -1
        elif _is_space(c):
            j += 1
            continue
        elif c < 128 and letter_tile[c] >= 0:
            if j + 1 < stop and 48 <= buf[j + 1] <= 57:
                return -1  # W1, F1: maybe a Botzone code
        else:
            first = -1
        if first >= 0:
            for k in range(first, j if s >= 0 else j + 1):
                t = letter_tile[c]
                if s >= 0:
                    rank = buf[k] - 48
                    if s == 3 and rank > 7:
                        return -1
                    t = 9 * s + rank - 1
                if in_meld:
                    if m_n == 0:
                        m0 = t
                    elif m_n == 1:
                        m1 = t
                    elif m_n == 2:
                        m2 = t
                    elif m_n == 3:
                        m3 = t
                    else:
                        return -1
                    m_n += 1
                else:
                    if concealed[r, t] == 4:
                        return -1
                    concealed[r, t] += 1
                    n_tiles += 1
            pend = 0
            j += 1
            continue
        if c == 91 or c == 123:  # [ {
            if in_meld or n_melds == 4:
                return -1
            in_meld = c
            m_n = 0
            j += 1
            continue
        if c == 93 or c == 125:  # ] }
            if in_meld == 0 or c != in_meld + 2 or (m_n != 3 and m_n != 4):
                return -1
            # sort the (3 or 4) meld tiles
            if m_n == 3:
                m3 = 255
            if m0 > m1:
                m0, m1 = m1, m0
            if m2 > m3:
                m2, m3 = m3, m2
            if m0 > m2:
                m0, m2 = m2, m0
            if m1 > m3:
                m1, m3 = m3, m1
            if m1 > m2:
                m1, m2 = m2, m1
            kind = 0
            if m_n == 4 and m0 == m3:
                kind = 4 if in_meld == 123 else 3
            elif in_meld == 123:
                return -1
            elif m_n == 3 and m0 == m2:
                kind = 2
            elif m_n == 3 and m0 < 27 and m1 == m0 + 1 and m2 == m0 + 2 and m0 % 9 <= 6:
                kind = 1
            else:
                return -1
            melds[r, n_melds, 0] = kind
            melds[r, n_melds, 1] = m0
            n_melds += 1
            in_meld = 0
            j += 1
            continue
        if c == 43:  # +
            if in_meld or win >= 0:
                return -1
            j += 1
            while j < stop and _is_space(buf[j]):
                j += 1
            if j >= stop:
                return -1
            c = buf[j]
            if c < 128 and letter_tile[c] >= 0:
                if j + 1 < stop and 48 <= buf[j + 1] <= 57:
                    return -1
                win = letter_tile[c]
                j += 1
            elif 49 <= c <= 57 and j + 1 < stop and buf[j + 1] < 128 and suit[buf[j + 1]] >= 0:
                s = suit[buf[j + 1]]
                if s == 3 and c - 48 > 7:
                    return -1
                win = 9 * s + c - 49
                j += 2
            else:
                return -1
            continue
        return -1
    if pend or in_meld:
        return -1
    if win >= 0:
        if concealed[r, win] == 4:
            return -1
        concealed[r, win] += 1
        win_tile[r] = win
    else:
        win_tile[r] = 255
    # melds: copies counting the melds, then sort slots by (tile, kind)
    for k in range(n_melds):
        kind = melds[r, k, 0]
        for d in range(3 if kind == 1 else 1):
            t = melds[r, k, 1] + d
            held = concealed[r, t]
            for q in range(n_melds):
                kq = melds[r, q, 0]
                tq = melds[r, q, 1]
                if kq == 1 and tq <= t <= tq + 2:
                    held += 1
                elif kq != 1 and tq == t:
                    held += 3 if kq == 2 else 4
            if held > 4:
                return -1
    for a in range(1, n_melds):
        k = a
        while k > 0 and (
            melds[r, k - 1, 1] > melds[r, k, 1]
            or (melds[r, k - 1, 1] == melds[r, k, 1] and melds[r, k - 1, 0] > melds[r, k, 0])
        ):
            for q in range(2):
                tmp = melds[r, k - 1, q]
                melds[r, k - 1, q] = melds[r, k, q]
                melds[r, k, q] = tmp
            k -= 1
    return n_tiles + 3 * n_melds


@hjit
def _parse_row(
    buf,
    lo,
    hi,
    r,
    kw_table,
    kw_lens,
    kw_kind,
    kw_a,
    kw_b,
    wind_table,
    wind_lens,
    wind_value,
    flower_table,
    flower_lens,
    flower_bit,
    tile_char,
    letter_tile,
    suit,
    concealed,
    melds,
    win_tile,
    flags,
    values,
):
    """Read row ``r`` (``buf[lo:hi]``); return :data:`OK` or :data:`DEFER`.

    ``flags`` bool (N, 4) and ``values`` uint8 (N, 4) (seat, round, flowers,
    situation) are written for an OK row; the wrapper splits them into fields.
    ``tile_char`` marks the ASCII bytes of tile tokens (any notation).
    """
    # the tile section ends at the first token that is not made of tile characters
    stop = hi
    j = lo
    while j < hi:
        j, k, eq, tiles = _token(buf, j, hi, tile_char)
        if eq == -2:
            return DEFER
        if j < hi and not tiles:
            stop = j
            break
        j = k
    if stop < hi:
        c = buf[stop]
        if 48 <= c <= 57 or c == 91 or c == 123 or c == 43:
            return DEFER  # tiles with a typo: parse_hand words the error
    size = _tiles_section(buf, lo, stop, r, concealed, melds, win_tile, letter_tile, suit)
    if size != 13:
        return DEFER
    said = 0  # bits 0-3 flags, 4-7 seat round flowers situation
    flag_bits = 0
    named_bits = 0
    j = stop
    while j < hi:
        j, k, eq, tiles = _token(buf, j, hi, tile_char)
        if j >= hi:
            break
        if tiles or eq == -2:
            return DEFER  # tiles after the keywords
        key = _match(buf, j, k if eq < 0 else eq, kw_table, kw_lens, True)
        if key < 0:
            return DEFER
        kind = kw_kind[key]
        if eq < 0:
            if kind == KIND_SITUATION:
                named_bits |= kw_a[key]
            elif kind == KIND_FLAG:
                sets = kw_a[key]
                vals = kw_b[key]
                if (said & sets & (flag_bits ^ vals)) != 0:
                    return DEFER  # contradicts an earlier keyword
                said |= sets
                flag_bits = (flag_bits & ~sets) | (vals & sets)
            else:
                return DEFER
        else:
            if kind != KIND_VALUE or eq + 1 >= k:
                return DEFER
            field = kw_a[key]
            if field <= 1:
                w = _match(buf, eq + 1, k, wind_table, wind_lens, False)
                if w < 0:
                    return DEFER
                v = wind_value[w]
            elif field == 2:
                v = _flowers(buf, eq + 1, k, flower_table, flower_lens, flower_bit)
                if v < 0:
                    return DEFER
            else:
                if buf[eq + 1] == 48 and k - eq - 1 > 1:
                    return DEFER  # int("05", 0) is an error
                v = _number(buf, eq + 1, k, 255)
                if v < 0:
                    return DEFER
            bit = 1 << (4 + field)
            if said & bit and values[r, field] != v:
                return DEFER
            said |= bit
            values[r, field] = v
        j = k
    values[r, 3] |= named_bits
    for f in range(4):
        flags[r, f] = (flag_bits >> f) & 1 == 1
    return OK


@jit
def _parse_block(
    lo, hi, buf, starts, ends, tables, concealed, melds, win_tile, flags, values, status
):
    kw_table, kw_lens, kw_kind, kw_a, kw_b, wind_table, wind_lens, wind_value = tables[:8]
    flower_table, flower_lens, flower_bit, tile_char = tables[8:]
    for r in range(lo, hi):
        status[r] = _parse_row(
            buf, starts[r], ends[r], r, kw_table, kw_lens, kw_kind, kw_a, kw_b,
            wind_table, wind_lens, wind_value, flower_table, flower_lens, flower_bit,
            tile_char, _LETTER_TILE, _SUIT, concealed, melds, win_tile, flags, values,
        )  # fmt: skip


@jit
def parse_rows_serial(buf, starts, ends, tables, concealed, melds, win_tile, flags, values, status):
    """Parse every row in order (no threads); see the module docstring."""
    n = starts.shape[0]
    _parse_block(0, n, buf, starts, ends, tables, concealed, melds, win_tile, flags, values, status)


@pjit
def parse_rows(buf, starts, ends, tables, concealed, melds, win_tile, flags, values, status):
    """Parse rows in parallel (prange over blocks of rows); see the module docstring."""
    n = starts.shape[0]
    n_blocks = (n + _BLOCK - 1) // _BLOCK
    for b in prange(n_blocks):
        lo = np.int64(b) * _BLOCK
        hi = min(n, lo + _BLOCK)
        _parse_block(
            lo, hi, buf, starts, ends, tables, concealed, melds, win_tile, flags, values, status
        )
