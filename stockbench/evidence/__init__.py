"""Evidence and publication gates: every number traced, every quote verbatim, fail closed."""
