"""One module per coverage report format, each a `READER` registered in `coverage/registry.py`."""
