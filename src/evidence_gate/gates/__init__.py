"""Gates: pure functions from values to a verdict. No I/O here: readers gather the facts first."""
