"""The headless command line: every feature reachable, `--json` for scripts."""
