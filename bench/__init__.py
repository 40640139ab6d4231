"""Benchmarks: each measures our code and a reference in the same run and prints the ratio.

Run all with `uv run python -m bench`, or some by name: `uv run python -m bench cold_start`.
"""
