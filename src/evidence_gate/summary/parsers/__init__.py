"""One module per runner format; each exports PARSER (see summary/base.py)."""
