"""Market data: providers, local file import, the point-in-time cache, data gates and the demo market."""
