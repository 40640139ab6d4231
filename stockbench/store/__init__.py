"""Persistence: the workspace folder, its single-owner lock, the DuckDB connection and numbered migrations."""
