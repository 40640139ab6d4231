"""Exchange rules: instrument identity, lots, ticks, price limits, sessions, calendars and fees."""
