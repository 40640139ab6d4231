-- The health of each data-source endpoint (stockbench.data.sources owns it): consecutive failures, the last
-- good answer and the last error, and until when its host rests after too many failures in a row.
CREATE TABLE source_health (
    name          VARCHAR PRIMARY KEY,
    host          VARCHAR NOT NULL,
    failures      INTEGER NOT NULL,
    last_ok       TIMESTAMPTZ,
    last_error    VARCHAR,
    last_error_at TIMESTAMPTZ,
    resting_until TIMESTAMPTZ
);
