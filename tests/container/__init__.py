"""The container proven, not assumed: built from the Dockerfile and run as GitHub runs it."""
