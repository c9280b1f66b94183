"""The one place where numba options are chosen.

Every kernel is decorated with :data:`jit` (serial) or :data:`pjit`
(``parallel=True``, used only on the outer loop over hands or chunks). Nothing
else in the package calls ``numba.njit`` directly, so cache and error-model
policy live here.

* ``cache=True``: compiled machine code is written to disk, so the second
  process starts warm.
* ``nogil=True``: kernels release the GIL, so threads (and Dask) run them side
  by side.
* ``error_model="numpy"``: integer division by zero does not raise inside
  kernels; kernels are written so that it never happens.
* :data:`ijit` adds ``inline="always"`` for small per-hand helpers in hot loops.
* :data:`hjit` ("hot") compiles per-hand kernels that never allocate without
  numba's reference counting (``_nrt=False``). numba updates an array's
  reference count atomically whenever a function takes, slices or unpacks
  it; in the scorer those updates were a tenth of the run time. Such a
  kernel must not create arrays (``np.zeros``, ``.copy()``) or return views:
  it only reads and writes the arrays it is given, which its caller owns.

All four compile a kernel that another kernel calls for the plain types of
its arguments, never once per constant (see :func:`_typed_without_literals`).

No ``fastmath``: tile code is integer code, and fastmath buys nothing there.

numba's private API, and why
----------------------------
Three things here have no public equivalent in numba (checked against 0.59-0.62):

* ``_nrt=False`` (:data:`hjit`): numba offers no public switch to compile a
  function without reference counting; the scorer's batch loop is a tenth
  faster without it (see above). Only :data:`hjit` uses it.
* ``Dispatcher.get_call_template`` (:func:`_typed_without_literals`): numba
  has no public option to type a callee's arguments without literals; the
  wrapper is the one place that changes how a call is typed, and it falls
  back to numba's own template for everything else.
* the cache locator (:class:`_PackageCacheLocator`, from ``numba.core.caching``):
  numba has no public hook to choose where a function caches; without it the
  same sources in a clone and in site-packages compile twice (its docstring
  says how it degrades should numba change).

Elsewhere the package uses numba's public API (``numba.njit``,
``numba.prange``, ``numba.types``, ``numba.extending``), plus two documented
modules that numba keeps under ``numba.core``: the event API
(``numba.core.event``, :mod:`mjstats.compiling`) and ``cgutils`` for the one
``@intrinsic`` (:mod:`mjstats.kernels.bits`).

Cache location and staleness
----------------------------
numba checks only the source file of a cached function itself, so a kernel in
one module that calls a kernel of another keeps the *old* code of the callee
after the callee changes. To rule that out, the cache lives in a folder keyed
by the numba version and a hash of every mjstats module that defines kernels,
of every ruleset package (its data drives its kernel; the registry gives the
kernel ids) and of the packages given to :func:`mjstats.rulesets.register`:
``$MJSTATS_CACHE_DIR/numba/<numba>-<hash>`` (default ``~/.cache/mjstats``).
Any change to a kernel or a ruleset starts a fresh cache. An explicit ``NUMBA_CACHE_DIR``
wins over this.

Inside that folder, a kernel of mjstats is cached under its module's place in the
package (``mjstats/kernels/``, ...), not under the folder it was imported from, and its
index is stamped with a hash of its source file, not the file's time
(:class:`_PackageCacheLocator`): an editable install, a regular install and a copy of
the same sources share one cache, so installing mjstats a second way compiles nothing.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

import numba
from numba import types
from numba.core import caching

__all__ = ["add_cache_sources", "cache_dir", "hjit", "ijit", "jit", "pjit", "use_cache_dir"]


#: source files outside the package that key the cache too: those of the ruleset
#: packages given to :func:`mjstats.rulesets.register` (it adds them here)
_EXTRA_SOURCES: list[Path] = []


def add_cache_sources(paths) -> None:
    """Key the cache folder by these source files as well (from now on)."""
    _EXTRA_SOURCES.extend(Path(p) for p in paths)
    use_cache_dir()


def cache_dir() -> Path:
    """The numba cache folder for this exact mjstats source tree and numba version."""
    base = os.environ.get("MJSTATS_CACHE_DIR")
    if not base:
        base = os.path.join(os.environ.get("XDG_CACHE_HOME") or "~/.cache", "mjstats")
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        source = path.read_bytes()
        rel = path.relative_to(package)
        # modules that define kernels, and the rulesets (data frozen into kernels)
        if b"kernels._jit import" in source or rel.parts[0] == "rulesets":
            digest.update(rel.as_posix().encode())
            digest.update(source)
    for path in _EXTRA_SOURCES:
        digest.update(path.as_posix().encode())
        digest.update(path.read_bytes())
    return Path(base).expanduser() / "numba" / f"{numba.__version__}-{digest.hexdigest()[:16]}"


def use_cache_dir() -> None:
    """Point numba at :func:`cache_dir` (kernels defined from now on cache there),
    unless ``NUMBA_CACHE_DIR`` is set."""
    if not os.environ.get("NUMBA_CACHE_DIR"):
        numba.config.CACHE_DIR = str(cache_dir())


try:
    _UserProvidedCacheLocator = caching.UserProvidedCacheLocator
except AttributeError:  # numba < 0.62 names it with a leading underscore
    _UserProvidedCacheLocator = caching._UserProvidedCacheLocator


class _PackageCacheLocator(_UserProvidedCacheLocator):
    """Where numba caches a kernel of this package: ``CACHE_DIR/mjstats/<subpackage>``,
    stamped with the hash of the kernel's source file.

    numba's own locator keys the cache by the absolute folder of the source file
    (``kernels_<sha1 of /path/to/site-packages/mjstats/kernels>``) and, before numba
    0.62, stamps the index with the file's modification time: the same sources in a
    clone (editable install) and in site-packages were compiled twice. :func:`cache_dir`
    already names the sources by their content, so the package-relative place and a
    content stamp are all a kernel needs.

    Private numba API, for want of a public one: numba offers no public hook to choose
    a cache locator (``numba.core.caching`` is internal; ``NUMBA_CACHE_LOCATOR_CLASSES``
    exists only from numba 0.62 and replaces numba's whole list). Inserting this class
    first in ``CacheImpl._locator_classes`` (``_CacheImpl`` before 0.62) leaves every
    other function, a user's own included, to numba's locators; should that list
    change, mjstats' kernels fall back to numba's locators and still cache, per folder.
    """

    _package = Path(__file__).resolve().parents[1]

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        rel = Path(py_file).resolve().parent.relative_to(self._package.parent)
        self._cache_path = os.path.join(numba.config.CACHE_DIR, *rel.parts)

    def get_source_stamp(self):
        st = os.stat(self._py_file)
        return _source_hash(self._py_file, st.st_mtime_ns, st.st_size)

    @classmethod
    def from_function(cls, py_func, py_file):
        try:
            Path(py_file).resolve().relative_to(cls._package)
        except (OSError, ValueError):  # not a file of this package
            return None
        return super().from_function(py_func, py_file)


@functools.cache
def _source_hash(path: str, mtime_ns: int, size: int) -> str:
    """SHA-256 of a source file (memoized per path, modification time and size)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _use_package_locator() -> None:
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)
    if isinstance(classes, list) and _PackageCacheLocator not in classes:
        classes.insert(0, _PackageCacheLocator)


_use_package_locator()
use_cache_dir()


def _typed_without_literals(njit):
    """``njit`` whose kernels, when called from other kernels, are compiled for
    the plain types of their arguments.

    numba types a constant argument (``f(x, True)``, ``f(x, 0)``, a global
    int) as a *literal* and compiles the callee once per distinct constant:
    the scorer was compiled 7 times and its division scorer 14 times in a test
    run. Compiled for ``bool``/``int64`` instead, every call site shares one
    machine-code body (with the other compile-time fixes, a cold test run went
    from 24 to 11 minutes and ``mjstats score``'s cold start from 53 to 36 s).
    Calls from Python are typed from the values and never literal, so they are
    unaffected.
    """

    def decorate(fn):
        dispatcher = njit(fn)
        if numba.config.DISABLE_JIT:  # njit returned the Python function itself
            return dispatcher
        plain = dispatcher.get_call_template

        def get_call_template(args, kws):
            args = tuple(types.unliteral(a) for a in args)
            kws = {k: types.unliteral(v) for k, v in kws.items()}
            return plain(args, kws)

        dispatcher.get_call_template = get_call_template
        return dispatcher

    return decorate


jit = _typed_without_literals(numba.njit(cache=True, nogil=True, error_model="numpy"))
# Small helpers called in hot loops: inlined at the numba IR level, which also saves
# the reference-count updates numba makes for every array argument of a call.
ijit = _typed_without_literals(
    numba.njit(cache=True, nogil=True, error_model="numpy", inline="always")
)
hjit = _typed_without_literals(numba.njit(cache=True, nogil=True, error_model="numpy", _nrt=False))
pjit = _typed_without_literals(
    numba.njit(cache=True, nogil=True, error_model="numpy", parallel=True)
)
