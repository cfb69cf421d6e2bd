"""One module per CLI verb. Each has NAME, HELP, EPILOG (its exit codes), `configure(parser)` to add
its flags, and `run(args, out)` returning the exit code. The CLI lists them in VERBS (cli.py)."""
