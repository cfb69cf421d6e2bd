"""Test counts read from what runners really print: one parser module per format, registered by
name in `registry.py`, and `read.py` to recognise a format from content and add up several sources."""
