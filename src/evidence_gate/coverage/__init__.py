"""Coverage of the change: report readers (one module per format, `readers/`), path mapping to the
repository (`paths`), the reports merged over the changed files (`collect`), and the pure measures
the coverage gate judges (`measure`)."""
