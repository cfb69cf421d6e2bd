"""Gate integrity: which edits of a change touch a gate, and which of them relax one."""
