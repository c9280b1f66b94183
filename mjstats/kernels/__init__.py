"""Pure numba kernels: arrays in, arrays out, no Python objects.

Modules here never validate input (numba does not bounds-check); the public
wrappers in :mod:`mjstats` do. See :mod:`mjstats.kernels._jit` for jit options.
"""
