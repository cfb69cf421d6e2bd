"""Evidence Gate: decides whether a pull request's test evidence is real."""

__version__ = "0.1.0"
