"""JSON Schemas of the documents the tool reads and writes (the ledger, the repository config)."""
