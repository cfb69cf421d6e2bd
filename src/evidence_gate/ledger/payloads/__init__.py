"""Each gate's payload, one module a gate: the typed values its partial template lays out and the
ledger carries, declared once (ledger/payload.py derives their JSON form). They sit below the
readers and the gates, so whatever reads a ledger (publish, merge, render) needs no gate module."""
