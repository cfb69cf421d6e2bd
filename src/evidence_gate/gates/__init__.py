"""Gates: pure functions from values to a verdict. No I/O here: readers gather the facts first."""

# Checks this version does not run yet: every output names the ones a ledger lacks as "not checked",
# so a PASS never implies them. A gate that lands takes its line out of this list.
NOT_YET_CHECKED: tuple[tuple[str, str], ...] = (("coverage", "coverage of the change"),)
