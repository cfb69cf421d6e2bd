"""Publishing to GitHub (PyGithub), and the workflow files GitHub hands an action. Publishing
knows nothing of gates: it takes a ledger and the texts rendered from it."""
