"""Lookup tables for exact shanten of every MCR form, with a disk cache.

A hand is split into four *groups*: characters, dots, bamboo (9 ranks each) and
honors (7 kinds). A group is keyed by the base-5 number of its counts,
``key = sum(count[r] * 5**r)`` (rank ``r`` = 0 for the 1 or East; see
:data:`KEY_MULT`), so a suit has ``5**9 = 1,953,125`` keys and the honors
``5**7 = 78,125``.

Distance vectors
----------------
For a key ``x`` and a target ``(k, p)`` -- ``k`` sets (0-4) and ``p`` pairs (0-1),
flattened as entry ``2*k + p`` -- the *distance* is the fewest tiles that must be
added to ``x`` so that it contains ``k`` sets and ``p`` pairs, never holding a
kind more than 4 times: ``min_c sum_r max(c[r] - x[r], 0)`` over the complete
patterns ``c <= 4``. This is exact: a hand never "waits" on a fifth copy. As
the four-copy limit is per kind and kinds never straddle groups, the fewest
tiles a whole hand needs for ``n`` sets and a pair is the min-plus merge of its
four groups' 10-entry vectors.

Only **126** distinct vectors occur among the 1,953,125 suit keys and **55**
among the honor keys, and merging two of them gives only a few hundred distinct
vectors again (entries clipped at 15, which never changes a result <= 14).
So each key stores a small vector *id*, and the merges are precomputed tables
of ids: the regular-form need of a hand is
``final[suit_suit[id_m, id_p], suit_honor[id_s, id_z], n]`` -- four row loads
and three lookups in tables that fit in the L2 cache.

Tables (:class:`ShantenTables`)
-------------------------------
``suit_rows``, ``honor_rows`` : uint64 per key
    bits 0-7 the vector id; bits 8-31 (suits) ``knit``; bits 32-63 ``info``.
``suit_vecs``, ``honor_vecs`` : uint8 (ids, 10)
    The distance vectors of the ids.
``suit_mask``, ``honor_mask`` : uint16 (keys, 10)
    Bit ``r`` of entry ``2k+p`` set when adding one tile of rank ``r`` (held
    fewer than 4 times) lowers that distance: the useful tiles of a group.
``suit_suit`` (S, S) -> ``ss_vecs``; ``suit_honor`` (S, H) -> ``sh_vecs``
    Ids of merged two-group vectors.
``final`` : uint8 (SS, SH, 5)
    Need for ``n`` sets + a pair (``n`` = 0-4) of two merged halves.
``ss_suit`` (SS, S) -> ``sss_vecs``; ``suit_sh`` (S, SH) and ``ss_honor`` (SS, H) -> ``ssh_vecs``
    Three-group merges: "everything but one group", for useful tiles.
``suit_hits`` : uint16 (S, SSH, 5); ``honor_hits`` : uint16 (H, SSS, 5)
    For a group's vector, the merged vector of the other three and ``n`` sets:
    bit ``2k+p`` set when the group taking target ``(k, p)`` and the rest
    ``(n-k, 1-p)`` is a cheapest split of the hand (its distances add up to
    the hand's need). A group's useful tiles are the union of its masks of
    those targets.

``knit`` (24 bits)
    For each knitted pattern ``j`` (ranks 1-4-7, 2-5-8, 3-6-9) at bit ``7j``:
    the distances for a pair (2 bits), a set (2 bits) and a set + pair (3 bits)
    of the key *without* its held ranks of that pattern -- what is left for the
    knitted straight once its body took one of each held body tile.
``info`` (32 bits)
    Small counts for the special forms, laid out so that the four groups'
    words can simply be *added* (no field overflows for a hand of <= 14 tiles):

    ======  ========================================================
    bits    field
    ======  ========================================================
    0-3     pair units: kinds held >= 2 times, plus kinds held 4 times
    4-7     single units: kinds held 1 or 3 times
    8-11    terminal/honor kinds held (ranks 1 and 9; every honor)
    12-15   terminal/honor kinds held >= 2 times
    16-21   suits: held kinds among ranks 1-4-7, 2-5-8, 3-6-9 (2 bits each)
    24-27   honors: honor kinds held
    ======  ========================================================

Build (numba + numpy, about a second once compiled): a forward pass computes,
for every key, the most sets that fit in it with and without a pair; a backward
pass over keys in decreasing order gives ``dist[x] = 0`` if ``x`` covers the
target, else ``1 + min_r dist[x + 5**r]`` (and the masks); then the vector ids,
the merge tables, ``knit`` and ``info``. No recursion.

Cache: :func:`get_tables` memoises the tables in the process and on disk in
:func:`cache_dir` (``$MJSTATS_CACHE_DIR``, else the platform's per-user cache
directory). The file has a header with a magic string, a format and a table
version, the payload size and a BLAKE2b checksum, then a directory of the
arrays; a missing, short, corrupt or other-version file is rebuilt and
rewritten atomically (temporary file + :func:`os.replace`). Cache write failures
(read-only home, ...) are ignored: the tables then live in memory only.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import sys
import tempfile
import threading
from pathlib import Path
from typing import NamedTuple

import numpy as np

from mjstats._readonly import read_only
from mjstats.kernels._jit import jit

__all__ = [
    "HONOR_KEYS",
    "KEY_MULT",
    "N_TARGETS",
    "SUIT_KEYS",
    "TABLE_VERSION",
    "ShantenTables",
    "build_tables",
    "cache_dir",
    "cache_path",
    "get_tables",
    "group_distances",
    "load_tables",
    "save_tables",
]

SUIT_KEYS = 5**9
"""Number of keys of a suit (9 ranks, counts 0-4)."""
HONOR_KEYS = 5**7
"""Number of keys of the honors group (7 kinds, counts 0-4)."""
N_TARGETS = 10
"""Entries per distance vector: target ``(k sets, p pairs)`` at ``2*k + p``."""
CLIP = 15
"""Merged distances are clipped here; needs are at most 14, so results never change."""

TABLE_VERSION = 7
"""Bump when the table contents or layout change: old cache files are rebuilt.

6: version 5 files written by a process running without the JIT had wrong
``info`` words (a kind held four times counted one pair unit, not two).
7: ``suit_hits`` and ``honor_hits`` added."""

_MAGIC = b"MJSTATS-SHANTEN\0"  # 16 bytes
_FORMAT = 2
_HEADER = struct.Struct("<16sIIQ16s")  # magic, format, table version, payload bytes, blake2b-128

KEY_MULT = np.array([5**r for r in range(9)] * 3 + [5**r for r in range(7)], dtype=np.int32)
"""int32 (34,): multiplier of tile ``t``'s count in its group key."""
KEY_MULT = read_only(KEY_MULT)


class ShantenTables(NamedTuple):
    """The lookup tables, passed as one argument to every shanten kernel.

    See the module docstring for what each array holds. All arrays are
    C-contiguous and read-only; pass the tuple to kernels as an argument (never
    as a global: numba would copy it into the compiled code).
    """

    suit_rows: np.ndarray
    honor_rows: np.ndarray
    suit_vecs: np.ndarray
    honor_vecs: np.ndarray
    suit_mask: np.ndarray
    honor_mask: np.ndarray
    suit_suit: np.ndarray
    suit_honor: np.ndarray
    ss_vecs: np.ndarray
    sh_vecs: np.ndarray
    final: np.ndarray
    ss_suit: np.ndarray
    suit_sh: np.ndarray
    ss_honor: np.ndarray
    sss_vecs: np.ndarray
    ssh_vecs: np.ndarray
    suit_hits: np.ndarray
    honor_hits: np.ndarray


# --------------------------------------------------------------------------- build


@jit
def _max_sets(ndig, chows, m0, m1):
    """Forward pass: most sets that fit in each key without (m0) / with (m1) a pair.

    ``m1`` is -1 when no pair fits. Both are capped at 4.
    """
    n = m0.shape[0]
    pw = np.empty(ndig, dtype=np.int64)
    pw[0] = 1
    for i in range(1, ndig):
        pw[i] = pw[i - 1] * 5
    digits = np.zeros(ndig, dtype=np.int64)
    for x in range(n):
        best0 = 0
        best1 = -1
        for i in range(ndig):
            d = digits[i]
            if d >= 2:
                v = m0[x - 2 * pw[i]]
                if v > best1:
                    best1 = v
            if d >= 3:
                y = x - 3 * pw[i]
                v = m0[y] + 1
                if v > best0:
                    best0 = v
                v = m1[y]
                if v >= 0 and v + 1 > best1:
                    best1 = v + 1
            if chows and i + 2 < ndig and d >= 1 and digits[i + 1] >= 1 and digits[i + 2] >= 1:
                y = x - pw[i] - pw[i + 1] - pw[i + 2]
                v = m0[y] + 1
                if v > best0:
                    best0 = v
                v = m1[y]
                if v >= 0 and v + 1 > best1:
                    best1 = v + 1
        m0[x] = min(best0, 4)
        m1[x] = min(best1, 4)
        # odometer increment of the base-5 digits
        i = 0
        while i < ndig:
            digits[i] += 1
            if digits[i] < 5:
                break
            digits[i] = 0
            i += 1


@jit
def _distances(ndig, m0, m1, dist, mask):
    """Backward pass: ``dist[x] = 0`` if covered else ``1 + min_r dist[x + 5**r]``."""
    n = m0.shape[0]
    pw = np.empty(ndig, dtype=np.int64)
    pw[0] = 1
    for i in range(1, ndig):
        pw[i] = pw[i - 1] * 5
    digits = np.full(ndig, 4, dtype=np.int64)
    best = np.empty(N_TARGETS, dtype=np.int64)
    for x in range(n - 1, -1, -1):
        for kp in range(N_TARGETS):
            best[kp] = 255
        for i in range(ndig):
            if digits[i] < 4:
                y = x + pw[i]
                for kp in range(N_TARGETS):
                    v = np.int64(dist[y, kp])
                    if v < best[kp]:
                        best[kp] = v
        for kp in range(N_TARGETS):
            k = kp >> 1
            covered = m1[x] >= k if kp & 1 else m0[x] >= k
            if covered:
                dist[x, kp] = 0
                mask[x, kp] = 0
            else:
                dist[x, kp] = best[kp] + 1
                bits = 0
                for i in range(ndig):
                    if digits[i] < 4 and dist[x + pw[i], kp] == best[kp]:
                        bits |= 1 << i
                mask[x, kp] = bits
        # odometer decrement
        i = 0
        while i < ndig:
            digits[i] -= 1
            if digits[i] >= 0:
                break
            digits[i] = 4
            i += 1


@jit
def _info_words(ndig, out):
    """The ``info`` word of every key (see the module docstring); fields clipped to 4 bits."""
    digits = np.zeros(ndig, dtype=np.int64)
    for x in range(out.shape[0]):
        pair_units = 0
        single_units = 0
        orphans = 0
        orphan_pairs = 0
        knit = 0
        for i in range(ndig):
            d = digits[i]
            # counts as ints: under NUMBA_DISABLE_JIT, numpy's bool + bool is a
            # logical or, and a kind held four times would count one pair unit
            pair_units += int(d >= 2) + int(d == 4)
            single_units += int(d == 1) + int(d == 3)
            if ndig == 7 or i == 0 or i == 8:
                orphans += d >= 1
                orphan_pairs += d >= 2
            if ndig == 9 and d >= 1:
                knit += 1 << (2 * (i % 3))
        info = min(pair_units, 15) | (min(single_units, 15) << 4)
        info |= (min(orphans, 15) << 8) | (min(orphan_pairs, 15) << 12)
        if ndig == 9:
            info |= knit << 16
        else:
            info |= min(orphans, 15) << 24
        out[x] = info
        i = 0
        while i < ndig:
            digits[i] += 1
            if digits[i] < 5:
                break
            digits[i] = 0
            i += 1


@jit
def _knit_words(dist, out):
    """``knit`` of every suit key: distances of the key minus its held ranks j, j+3, j+6."""
    digits = np.zeros(9, dtype=np.int64)
    for x in range(dist.shape[0]):
        word = 0
        for j in range(3):
            y = x
            pw = 5**j
            for u in range(3):
                if digits[j + 3 * u] >= 1:
                    y -= pw
                pw *= 125
            word |= (
                np.int64(dist[y, 1]) | (np.int64(dist[y, 2]) << 2) | (np.int64(dist[y, 3]) << 4)
            ) << (7 * j)
        out[x] = word
        i = 0
        while i < 9:
            digits[i] += 1
            if digits[i] < 5:
                break
            digits[i] = 0
            i += 1


def group_distances(ndig: int, chows: bool) -> tuple[np.ndarray, np.ndarray]:
    """Distance vectors and useful-rank masks of every key of one group.

    Parameters
    ----------
    ndig : int
        Kinds in the group (9 for a suit, 7 for the honors).
    chows : bool
        Whether chows exist (suits).

    Returns
    -------
    dist : uint8 (5**ndig, 10)
    mask : uint16 (5**ndig, 10)

    Examples
    --------
    >>> dist, mask = group_distances(7, False)
    >>> dist[0].tolist()           # no honors: a pair costs 2, each pung 3 more
    [0, 2, 3, 5, 6, 8, 9, 11, 12, 14]
    """
    n = 5**ndig
    m0 = np.zeros(n, dtype=np.int8)
    m1 = np.full(n, -1, dtype=np.int8)
    _max_sets(ndig, chows, m0, m1)
    dist = np.empty((n, N_TARGETS), dtype=np.uint8)
    mask = np.empty((n, N_TARGETS), dtype=np.uint16)
    _distances(ndig, m0, m1, dist, mask)
    return dist, mask


def _vector_ids(dist: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(ids per row, distinct vectors) of an (n, 10) matrix of values <= 15."""
    code = np.zeros(len(dist), dtype=np.int64)
    for c in range(N_TARGETS):
        code |= dist[:, c].astype(np.int64) << (4 * c)
    uniq, inverse = np.unique(code, return_inverse=True)
    if len(uniq) > 256:
        raise RuntimeError(f"{len(uniq)} distinct vectors do not fit a uint8 id")
    vecs = ((uniq[:, None] >> (4 * np.arange(N_TARGETS))) & 15).astype(np.uint8)
    return inverse.astype(np.uint8).reshape(-1), vecs


def _merge_all(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Min-plus merge of every vector of ``a`` with every vector of ``b``, clipped."""
    a = a.astype(np.int64)[:, None, :]
    b = b.astype(np.int64)[None, :, :]
    out = np.full((a.shape[0], b.shape[1], N_TARGETS), 255, dtype=np.int64)
    for k in range(5):
        for i in range(k + 1):
            j = k - i
            n_part = a[..., 2 * i] + b[..., 2 * j]
            p_part = np.minimum(
                a[..., 2 * i + 1] + b[..., 2 * j], a[..., 2 * i] + b[..., 2 * j + 1]
            )
            out[..., 2 * k] = np.minimum(out[..., 2 * k], n_part)
            out[..., 2 * k + 1] = np.minimum(out[..., 2 * k + 1], p_part)
    return np.minimum(out, CLIP)


def _merge_ids(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    merged = _merge_all(a, b)
    ids, vecs = _vector_ids(merged.reshape(-1, N_TARGETS))
    return ids.reshape(merged.shape[:2]), vecs


def build_tables() -> ShantenTables:
    """Build the tables from scratch (no cache involved).

    Returns
    -------
    ShantenTables
        Read-only arrays.

    Examples
    --------
    >>> t = build_tables()
    >>> len(t.suit_vecs), len(t.honor_vecs)
    (126, 55)
    >>> row = int(t.suit_rows[0])          # an empty suit
    >>> t.suit_vecs[row & 0xFF].tolist()   # 4 sets + a pair need 14 tiles
    [0, 2, 3, 5, 6, 8, 9, 11, 12, 14]
    """
    suit_dist, suit_mask = group_distances(9, True)
    honor_dist, honor_mask = group_distances(7, False)
    suit_id, suit_vecs = _vector_ids(suit_dist)
    honor_id, honor_vecs = _vector_ids(honor_dist)

    suit_info = np.empty(SUIT_KEYS, dtype=np.int64)
    honor_info = np.empty(HONOR_KEYS, dtype=np.int64)
    _info_words(9, suit_info)
    _info_words(7, honor_info)
    knit = np.empty(SUIT_KEYS, dtype=np.int64)
    _knit_words(suit_dist, knit)
    suit_rows = (suit_id.astype(np.int64) | (knit << 8) | (suit_info << 32)).view(np.uint64)
    honor_rows = (honor_id.astype(np.int64) | (honor_info << 32)).view(np.uint64)

    suit_suit, ss_vecs = _merge_ids(suit_vecs, suit_vecs)
    suit_honor, sh_vecs = _merge_ids(suit_vecs, honor_vecs)
    halves = _merge_all(ss_vecs, sh_vecs)  # (SS, SH, 10)
    final = np.empty((len(ss_vecs), len(sh_vecs), 5), dtype=np.uint8)
    for n in range(5):
        final[..., n] = halves[..., 2 * n + 1]
    # three-group merges ("all but one group") for useful tiles
    sss = _merge_all(ss_vecs, suit_vecs)
    ssh_a = _merge_all(suit_vecs, sh_vecs)
    ssh_b = _merge_all(ss_vecs, honor_vecs)
    sss_ids, sss_vecs = _vector_ids(sss.reshape(-1, N_TARGETS))
    both = np.concatenate([ssh_a.reshape(-1, N_TARGETS), ssh_b.reshape(-1, N_TARGETS)])
    ssh_ids, ssh_vecs = _vector_ids(both)
    n_a = ssh_a.shape[0] * ssh_a.shape[1]
    return _assemble(
        suit_rows=suit_rows,
        honor_rows=honor_rows,
        suit_vecs=suit_vecs,
        honor_vecs=honor_vecs,
        suit_mask=suit_mask,
        honor_mask=honor_mask,
        suit_suit=suit_suit,
        suit_honor=suit_honor,
        ss_vecs=ss_vecs,
        sh_vecs=sh_vecs,
        final=final,
        ss_suit=sss_ids.reshape(sss.shape[:2]),
        suit_sh=ssh_ids[:n_a].reshape(ssh_a.shape[:2]),
        ss_honor=ssh_ids[n_a:].reshape(ssh_b.shape[:2]),
        sss_vecs=sss_vecs,
        ssh_vecs=ssh_vecs,
        suit_hits=_split_hits(suit_vecs, ssh_vecs),
        honor_hits=_split_hits(honor_vecs, sss_vecs),
    )


def _split_hits(group: np.ndarray, rest: np.ndarray) -> np.ndarray:
    """uint16 (len(group), len(rest), 5): bit ``2k+p`` of entry ``[g, r, n]`` set when
    ``group[g, 2k+p] + rest[r, 2(n-k)+1-p]`` is the least such sum (the need of
    ``n`` sets + a pair)."""
    g = group.astype(np.int64)[:, None, :]
    r = rest.astype(np.int64)[None, :, :]
    out = np.zeros((group.shape[0], rest.shape[0], 5), dtype=np.uint16)
    for n in range(5):
        sums = np.stack(
            [g[..., e] + r[..., 2 * (n - e // 2) + 1 - e % 2] for e in range(2 * n + 2)]
        )
        least = sums.min(axis=0)
        for e in range(2 * n + 2):
            out[..., n] |= (sums[e] == least).astype(np.uint16) << e
    return out


def _assemble(**arrays: np.ndarray) -> ShantenTables:
    out = []
    for name in ShantenTables._fields:
        arr = np.ascontiguousarray(arrays[name])
        arr = read_only(arr)
        out.append(arr)
    return ShantenTables(*out)


# --------------------------------------------------------------------------- disk cache


def cache_dir() -> Path:
    """Per-user directory for mjstats cache files.

    ``$MJSTATS_CACHE_DIR`` if set; otherwise ``%LOCALAPPDATA%\\mjstats\\Cache`` on
    Windows, ``~/Library/Caches/mjstats`` on macOS and
    ``${XDG_CACHE_HOME:-~/.cache}/mjstats`` elsewhere. Not created here.

    Examples
    --------
    >>> cache_dir().name in ("mjstats", "Cache") or "MJSTATS_CACHE_DIR" in os.environ
    True
    """
    env = os.environ.get("MJSTATS_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    if sys.platform.startswith("win"):
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "mjstats" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "mjstats"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mjstats"


def cache_path() -> Path:
    """Path of the table cache file for the current :data:`TABLE_VERSION`.

    Examples
    --------
    >>> cache_path().name
    'shanten-tables-v7.bin'
    """
    return cache_dir() / f"shanten-tables-v{TABLE_VERSION}.bin"


def _digest(payload) -> bytes:
    return hashlib.blake2b(payload, digest_size=16).digest()


def save_tables(tables: ShantenTables, path: str | os.PathLike | None = None) -> Path:
    """Write ``tables`` atomically (temporary file in the same directory + rename).

    Layout: fixed header (magic, format, table version, payload size, BLAKE2b of
    the payload), then the payload: a length-prefixed JSON directory of the
    arrays (name, dtype, shape, offset) followed by their bytes.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> p = save_tables(get_tables(), d / "t.bin")
    >>> load_tables(p) is not None
    True
    """
    path = Path(path) if path is not None else cache_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    directory = []
    chunks = []
    offset = 0
    for name, arr in zip(ShantenTables._fields, tables, strict=True):
        data = np.ascontiguousarray(arr).tobytes()
        directory.append([name, arr.dtype.str, list(arr.shape), offset])
        chunks.append(data)
        offset += len(data)
        pad = -offset % 16  # keep every array aligned
        chunks.append(b"\0" * pad)
        offset += pad
    head = json.dumps(directory).encode()
    head += b" " * (-(len(head) + 8) % 16)
    payload = struct.pack("<Q", len(head)) + head + b"".join(chunks)
    header = _HEADER.pack(_MAGIC, _FORMAT, TABLE_VERSION, len(payload), _digest(payload))
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(header)
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


def load_tables(path: str | os.PathLike | None = None) -> ShantenTables | None:
    """Read a cache file; ``None`` if it is missing, truncated, corrupt or of another version.

    Examples
    --------
    >>> load_tables("/nonexistent/file.bin") is None
    True
    """
    path = Path(path) if path is not None else cache_path()
    try:
        raw = np.fromfile(path, dtype=np.uint8)
    except (OSError, ValueError):
        return None
    if raw.size < _HEADER.size + 8:
        return None
    magic, fmt, version, nbytes, digest = _HEADER.unpack(raw[: _HEADER.size].tobytes())
    if magic != _MAGIC or fmt != _FORMAT or version != TABLE_VERSION:
        return None
    payload = raw[_HEADER.size :]
    if payload.size != nbytes or _digest(payload) != digest:
        return None
    try:
        (head_len,) = struct.unpack("<Q", payload[:8].tobytes())
        directory = json.loads(payload[8 : 8 + head_len].tobytes())
        body = payload[8 + head_len :]
        arrays = {}
        for name, dtype, shape, offset in directory:
            dt = np.dtype(dtype)
            size = dt.itemsize * int(np.prod(shape))
            arrays[name] = body[offset : offset + size].view(dt).reshape(shape)
        return _assemble(**arrays)
    except (ValueError, KeyError, TypeError):
        return None


_LOCK = threading.Lock()
_TABLES: ShantenTables | None = None


def get_tables() -> ShantenTables:
    """The process-wide tables: memory, else the disk cache, else build and cache.

    Thread-safe. Building takes about a second (plus a one-time numba
    compilation, itself cached); loading the ~57 MB cache file well under that.

    Examples
    --------
    >>> t = get_tables()
    >>> t.suit_rows.shape, t.honor_rows.shape, t.final.shape[2]
    ((1953125,), (78125,), 5)
    """
    global _TABLES
    if _TABLES is not None:
        return _TABLES
    with _LOCK:
        if _TABLES is None:
            tables = load_tables()
            if tables is None:
                tables = build_tables()
                try:
                    save_tables(tables)
                except OSError:
                    pass  # read-only or full cache dir: keep the tables in memory only
            _TABLES = tables
    return _TABLES
