"""A local Wordfeud-compatible server for tests and the demo (see sandbox/README.md).
"""
