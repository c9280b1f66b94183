"""One scoring entry point for every ruleset, callable from other numba code.

Studies generate hands inside numba and score them without leaving compiled
code; :func:`score_one` is what they call. It dispatches on a small integer
ruleset id (:func:`mjstats.rulesets.ruleset_id`) to the ``score`` of the
ruleset's binding, which adds flower points and decides legality. The dispatch
is a chain of ``if ruleset_id == k`` branches generated from the registry
(:func:`_dispatch`): numba cannot cache kernels that take other jitted
functions as arguments, nor those that call functions from a tuple, so the
bindings' functions are named one by one in the generated code.
:func:`kernel_spec` turns a :class:`~mjstats.rulesets.Ruleset` into the plain
scalars those kernels take.

The binding for numba callers: ``spec = kernel_spec(rs)`` in Python, then pass
``spec.ruleset_id, spec.opts, spec.minimum, spec.flowers_count_toward_minimum``
(plain integers) and the scratch of :func:`new_scratch` to :func:`score_one`
inside your kernel. ``kernel_spec`` asks the registry for the id and the
ruleset's binding (``rs.kernel``, :mod:`mjstats.rulesets`) for ``opts(rs)``.
For MCR, ``opts`` holds the options, the profile's kernel switches and the
profile's row of the kernel's points and 不计 tables, so a profile
(``"mcr:wmo-2014"``) needs nothing else from the caller.
"""

from __future__ import annotations

from typing import NamedTuple

from numba.extending import overload

from mjstats.errors import UnknownRulesetError
from mjstats.kernels._jit import ijit, jit
from mjstats.rulesets import bindings, packages, ruleset_id

__all__ = [
    "KernelSpec",
    "kernel_spec",
    "new_scratch",
    "score_one",
]


class KernelSpec(NamedTuple):
    """A ruleset as the scalars the kernels take."""

    ruleset_id: int
    opts: int
    minimum: int
    flowers_count_toward_minimum: bool
    n_fans: int
    n_forms: int


def kernel_spec(rs) -> KernelSpec:
    """The :class:`KernelSpec` of a :class:`~mjstats.rulesets.Ruleset`, from its
    id in the registry (:func:`mjstats.rulesets.ruleset_id`) and its kernel
    binding (``rs.kernel``: ``opts(rs)``).

    Examples
    --------
    >>> from mjstats.rulesets import get_ruleset
    >>> kernel_spec(get_ruleset("mcr")).minimum
    8
    """
    binding = rs.kernel  # ValueError when the ruleset has no kernel
    if rs.name not in packages():
        raise UnknownRulesetError(
            f"ruleset {rs.name!r} is not registered (mjstats.rulesets.register)"
        )
    return KernelSpec(
        ruleset_id(rs.name),
        binding.opts(rs),
        rs.minimum,
        bool(rs.options.get("flowers_count_toward_minimum", False)),
        rs.n_fans,
        len(rs.forms),
    )


@jit
def new_scratch(table):
    """Per-thread scratch buffers for :func:`score_one` (allocate once, reuse):
    a tuple of each ruleset's (its binding's ``new_work``), in id order.

    ``table`` is :func:`mjstats.kernels.decompose.suit_table` (get it in Python
    and pass it down: kernels cannot load it themselves)."""
    return _works(table)


# Inlined into its callers (study loops): numba passes every array argument as
# seven or more machine words, so a separate score_one took the scratch of both
# rulesets (216 words) per hand (see the README, Development, "Call cost").
@ijit
def score_one(
    ruleset_id,
    opts,
    minimum,
    flowers_count,
    concealed,
    melds,
    win_tile,
    self_drawn,
    last_of_kind,
    kong_win,
    last_of_wall,
    seat_wind,
    round_wind,
    flowers,
    situation,
    scratch,
    fan_out,
):
    """Score one hand under a ruleset; returns ``(total, flower_points, form, legal)``.

    ``total`` includes flower points and is -1 when the hand is not complete
    (then ``fan_out`` is all zero and ``legal`` is False). ``flowers_count``
    says whether flower points count toward ``minimum``.

    ``fan_out`` has the ruleset's ``n_fans`` entries. What the ruleset makes of
    each argument is its binding's ``score`` (two-player: ``last_of_kind`` is
    not used, the game has no 和绝张; ``situation`` gives 天胡, 地胡, 人胡, 报听
    and 天听; MCR does not use ``situation``). Situation bits the hand
    contradicts are ignored here (the public API rejects them).
    """
    return _dispatch(
        ruleset_id, opts, minimum, flowers_count, concealed, melds, win_tile, self_drawn,
        last_of_kind, kong_win, last_of_wall, seat_wind, round_wind, flowers, situation,
        scratch, fan_out,
    )  # fmt: skip


_SCORE_ARGS = (
    "opts, minimum, flowers_count, concealed, melds, win_tile, self_drawn, last_of_kind, "
    "kong_win, last_of_wall, seat_wind, round_wind, flowers, situation"
)


def _generated(params: str, lines: list[str], functions: tuple):
    """A function ``impl(params)`` with body ``lines``, where ``_f0, _f1, ...``
    name ``functions``: the registry's dispatch, written out for numba."""
    namespace = {f"_f{k}": f for k, f in enumerate(functions)}
    exec(f"def impl({params}):\n" + "".join(f"    {line}\n" for line in lines), namespace)
    return namespace["impl"]


def _works(table):
    """The tuple of every ruleset's scratch, in id order (numba only)."""
    raise NotImplementedError("called from numba only")


def _dispatch(
    ruleset_id, opts, minimum, flowers_count, concealed, melds, win_tile, self_drawn,
    last_of_kind, kong_win, last_of_wall, seat_wind, round_wind, flowers, situation,
    scratch, fan_out,
):  # fmt: skip
    """``score`` of the binding of ruleset ``ruleset_id`` (numba only)."""
    raise NotImplementedError("called from numba only")


@overload(_works, inline="always")
def _works_numba(table):
    makers = tuple(b.new_work for b in bindings())
    calls = "".join(f"_f{k}(table), " for k in range(len(makers)))
    return _generated("table", [f"return ({calls})"], makers)


@overload(_dispatch, inline="always")
def _dispatch_numba(
    ruleset_id, opts, minimum, flowers_count, concealed, melds, win_tile, self_drawn,
    last_of_kind, kong_win, last_of_wall, seat_wind, round_wind, flowers, situation,
    scratch, fan_out,
):  # fmt: skip
    scorers = tuple(b.score for b in bindings())
    call = "_f{k}(" + _SCORE_ARGS + ", scratch[{k}], fan_out)"
    last = len(scorers) - 1
    lines = [f"if ruleset_id == {k}:\n        return {call.format(k=k)}" for k in range(last)]
    lines.append(f"return {call.format(k=last)}")
    return _generated(f"ruleset_id, {_SCORE_ARGS}, scratch, fan_out", lines, scorers)
