"""The quality-gate report: the registry's gates as numbered checks (1 type checker … 9 references),
the toolchain each check found, the evidence each command printed, the baseline they compare with,
and STAGNATION when the same check keeps failing the same way."""
