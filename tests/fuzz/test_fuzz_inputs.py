"""The fuzz inputs themselves: a mutated example stays within the size the targets' deadlines assume."""

from __future__ import annotations

from typing import Any, cast

from hypothesis import strategies as st

from .inputs import MUTATED_MAX_BYTES, _long_line, _repeat_line, _rewrapped, mutate


def _largest(strategy: st.SearchStrategy[Any], label: object = None) -> Any:
    """The largest value `strategy` can draw: the top of `integers(a, b)`, the last of `sampled_from`."""
    inner: Any = getattr(strategy, "wrapped_strategy", strategy)
    if hasattr(inner, "end"):
        return inner.end
    return inner.elements[-1]


largest = cast(st.DrawFn, _largest)  # a draw that always takes the largest choice


def test_mutations_that_multiply_stay_within_the_bound() -> None:
    """A line made a megabyte long and then repeated 300 times was 336 MB, which a reader took past the
    deadline to read (and CI's fuzz step failed on it): each mutation's result is now cut to the bound,
    and a repeat draws no more copies than fit in it."""
    line = b"0123456789abcdef"
    grown = mutate(largest, line, (line,), [_long_line, _repeat_line, _long_line, _repeat_line], MUTATED_MAX_BYTES)
    assert len(grown) > MUTATED_MAX_BYTES // 2, "the mutations still make a long input"
    assert len(grown) <= MUTATED_MAX_BYTES
    # UTF-32 is the widest re-encoding: four times the bytes, cut back to the bound.
    assert len(mutate(largest, grown, (line,), [_rewrapped], MUTATED_MAX_BYTES)) == MUTATED_MAX_BYTES
