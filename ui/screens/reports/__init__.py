"""The report browser: stored reports with their evidence, offline: search, compare, verify, export, review."""
