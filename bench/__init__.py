"""Benchmarks: each measures one part of the tool against a baseline run in the same process, as a
ratio, so that its figures hold on a shared and noisy machine. `python -m bench` runs them all and
prints one table (see bench/README.md)."""
