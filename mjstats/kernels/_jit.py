"""The one place where numba options are chosen.

Every kernel in :mod:`mjstats.kernels` is decorated with :data:`jit` (serial) or
:data:`pjit` (``parallel=True``, used only on the outer loop over hands). Nothing
else in the package calls ``numba.njit`` directly, so cache and error-model policy
can be changed here once.

* ``cache=True``: compiled machine code is written next to the module (or to
  ``NUMBA_CACHE_DIR``) so the second process starts warm.
* ``nogil=True``: kernels release the GIL, so Dask/threads can run them side by side.
* ``error_model="numpy"``: integer division by zero does not raise inside kernels;
  kernels are written so that it never happens.

No ``fastmath``: tile code is integer code, and fastmath buys nothing there.
"""

from __future__ import annotations

import numba

__all__ = ["jit", "pjit"]

jit = numba.njit(cache=True, nogil=True, error_model="numpy")
pjit = numba.njit(cache=True, nogil=True, error_model="numpy", parallel=True)
