"""Stacks: the adapter table (data), detection, and command rendering."""
