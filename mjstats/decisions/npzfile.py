"""Uncompressed ``.npz`` files written straight from the arrays' memory to the disk.

A shard of a large run is mostly three big arrays (observations, baseline planes,
masks). ``np.savez`` copies each of them in pieces before the checksum and the write,
and the kernel copies them again into its page cache: on a 2-core machine those copies
take the cores the next shard is computed on. :func:`write_npz` writes the same format
(``np.load`` reads it) with each large array's bytes read once for the zip checksum and
sent to the disk by direct I/O (Linux ``O_DIRECT``: the disk reads the memory itself),
when the array starts on a block boundary in memory (:func:`aligned_empty`) and the
file system allows it; anything else (small arrays, headers, the tail of a large
array, file systems without direct I/O such as tmpfs, other systems) goes through the
page cache as usual. The zip records are written here too (stored members with zip64
sizes, as :mod:`zipfile` writes them, and a fixed date, so the same arrays give the same
bytes), each member's checksum computed before its header: by ISA-L when the ``fast``
extra is installed (:data:`CHECKSUM`).
"""

from __future__ import annotations

import errno
import os
import struct

import numpy as np

try:  # ISA-L's checksum (the ``fast`` extra) is several times zlib's, with equal results
    from isal.isal_zlib import crc32 as _crc32

    CHECKSUM = "ISA-L"
except ImportError:
    from zlib import crc32 as _crc32

    CHECKSUM = "zlib"

__all__ = ["BLOCK", "CHECKSUM", "aligned_empty", "write_npz"]

BLOCK = 4096
"""Direct I/O's unit: file offsets, lengths and memory addresses are multiples of it."""

_DIRECT_MIN = 1 << 20  # smaller arrays are not worth the alignment padding
_CHUNK = 8 << 20  # bytes a direct write (a multiple of BLOCK)


def aligned_empty(shape, dtype) -> np.ndarray:
    """An uninitialised C-contiguous array whose data starts on a :data:`BLOCK`
    boundary, as direct I/O needs.

    Examples
    --------
    >>> a = aligned_empty((3, 20, 34), np.uint8)
    >>> a.shape, a.ctypes.data % BLOCK, a[:2].ctypes.data % BLOCK
    ((3, 20, 34), 0, 0)
    """
    dtype = np.dtype(dtype)
    n = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = np.empty(n + BLOCK, np.uint8)
    start = -raw.ctypes.data % BLOCK
    return raw[start : start + n].view(dtype).reshape(shape)


def write_npz(fh, arrays: dict[str, np.ndarray]) -> None:
    """Write ``arrays`` to the binary file ``fh`` (opened for writing, at its start)
    as an uncompressed ``.npz``, large block-aligned arrays by direct I/O (the module
    documentation says when).

    The bytes are a valid zip of ``.npy`` members that :func:`numpy.load` reads; a
    large array's ``.npy`` header is padded with spaces (as the format allows) so that
    its data starts on a block boundary of the file.

    Examples
    --------
    >>> import io
    >>> buf = io.BytesIO()
    >>> write_npz(buf, {"x": np.arange(3, dtype=np.int16), "m": np.eye(2, dtype=bool)})
    >>> z = np.load(io.BytesIO(buf.getvalue()))
    >>> z["x"].tolist(), z["m"].tolist()
    ([0, 1, 2], [[True, False], [False, True]])
    """
    try:
        fd = fh.fileno()
    except (AttributeError, OSError):  # an in-memory file: no direct I/O
        _write_zip(fh, arrays)
        return
    fh.flush()
    out = _DirectFile(fd)
    _write_zip(out, arrays)
    fh.seek(out.pos)


def _write_zip(out, arrays: dict[str, np.ndarray]) -> None:
    """The zip (stored members, zip64 sizes, a fixed date: the same arrays give the same
    bytes) written through ``out`` (``tell`` and ``write``). Each member's checksum is
    computed before its header, so its bytes go out once, unbuffered."""
    start = out.tell()
    central = []
    for name, a in arrays.items():
        a = np.asarray(a)
        a = a if a.flags.c_contiguous else a.copy(order="C")  # 0-d stays 0-d
        key = (name + ".npy").encode()
        offset = out.tell()
        data_at = offset + _LOCAL.size + len(key) + _LOCAL_EXTRA.size
        header = _npy_header(a, data_at if a.nbytes >= _DIRECT_MIN else None)
        body = a.reshape(-1).view(np.uint8)
        crc = _crc32(body, _crc32(header))
        size = len(header) + len(body)
        out.write(_LOCAL.pack(0x04034B50, 45, 0, 0, 0, _DOS_DATE, crc, _FF32, _FF32, len(key),
                              _LOCAL_EXTRA.size)
                  + key + _LOCAL_EXTRA.pack(1, 16, size, size))  # fmt: skip
        out.write(header)
        if len(body):
            out.write(body)
        central.append(_CENTRAL.pack(0x02014B50, 45, 45, 0, 0, 0, _DOS_DATE, crc, _FF32, _FF32,
                                     len(key), _CENTRAL_EXTRA.size, 0, 0, 0, 0, _FF32)
                       + key + _CENTRAL_EXTRA.pack(1, 24, size, size, offset - start))  # fmt: skip
    cd_at = out.tell() - start
    cd = b"".join(central)
    n = len(central)
    out.write(cd + struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, n, n, len(cd), cd_at)
              + struct.pack("<IIQI", 0x07064B50, 0, cd_at + len(cd), 1)
              + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, min(n, 0xFFFF), min(n, 0xFFFF),
                            min(len(cd), _FF32), min(cd_at, _FF32), 0))  # fmt: skip


# zip records (APPNOTE 6.3): the 32-bit sizes and offsets are 0xFFFFFFFF, their values in the
# zip64 extra field, as zipfile writes with force_zip64
_LOCAL = struct.Struct("<IHHHHHIIIHH")
_LOCAL_EXTRA = struct.Struct("<HHQQ")
_CENTRAL = struct.Struct("<IHHHHHHIIIHHHHHII")
_CENTRAL_EXTRA = struct.Struct("<HHQQQ")
_FF32 = 0xFFFFFFFF
_DOS_DATE = (0 << 9) | (1 << 5) | 1  # 1980-01-01, zip's earliest date


def _npy_header(a: np.ndarray, pos: int | None) -> bytes:
    """The ``.npy`` header (format 1.0) of ``a``, padded so that the data after it
    starts on a block boundary when the header starts at file offset ``pos``, else to
    a multiple of 64 bytes as numpy pads."""
    d = np.lib.format.header_data_from_array_1_0(a)
    text = "{" + "".join(f"{k!r}: {v!r}, " for k, v in sorted(d.items())) + "}"
    least = 10 + len(text) + 1  # magic, version, length; the dictionary; '\n'
    align = 64 if pos is None else BLOCK
    total = least + (-((0 if pos is None else pos) + least) % align)
    text += " " * (total - least) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text.encode("latin1")


class _DirectFile:
    """What :func:`_write_zip` writes through: ``os.pwrite`` at a position it keeps
    (writes only append), and a large write that starts on a block boundary (file and
    memory) goes by ``O_DIRECT`` on the same descriptor for its whole blocks."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.pos = os.lseek(fd, 0, os.SEEK_CUR)
        self.direct = hasattr(os, "O_DIRECT")

    def tell(self) -> int:
        return self.pos

    def write(self, data) -> int:
        view = memoryview(data).cast("B")
        n = len(view)
        bulk = n - n % BLOCK
        if (self.direct and bulk >= _DIRECT_MIN and self.pos % BLOCK == 0
                and np.frombuffer(view, np.uint8).ctypes.data % BLOCK == 0):  # fmt: skip
            if self._write_direct(view[:bulk]):
                view = view[bulk:]
                self.pos += bulk
        self._pwrite(view)
        return n

    def _pwrite(self, view: memoryview) -> None:
        while len(view):
            k = os.pwrite(self.fd, view, self.pos)
            view = view[k:]
            self.pos += k

    def _write_direct(self, view: memoryview) -> bool:
        """``view`` written at ``pos`` by direct I/O; False (and no more tries) where the
        system refuses it, the caller then writes it as usual."""
        import fcntl  # deferred: not on every system, and only needed here

        flags = fcntl.fcntl(self.fd, fcntl.F_GETFL)
        try:
            fcntl.fcntl(self.fd, fcntl.F_SETFL, flags | os.O_DIRECT)
            done = 0
            while done < len(view):
                k = os.pwrite(self.fd, view[done : done + _CHUNK], self.pos + done)
                if k % BLOCK:  # a short write off the block grid: finish as usual
                    raise OSError(errno.EINVAL, "short direct write")
                done += k
        except OSError as e:
            if e.errno not in (errno.EINVAL, errno.EOPNOTSUPP, errno.ENOTSUP):
                raise
            self.direct = False
            return False
        finally:
            fcntl.fcntl(self.fd, fcntl.F_SETFL, flags)
        return True
