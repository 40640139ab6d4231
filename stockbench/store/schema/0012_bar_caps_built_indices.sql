-- Market capitalisations on the bars (the community files carry them; providers' bars leave them null), and
-- the indices the program builds from the stored universe when no index is stored (stockbench.data.indices).
ALTER TABLE bars ADD COLUMN float_mcap DECIMAL(24, 2);   -- float market cap, currency units
ALTER TABLE bars ADD COLUMN total_mcap DECIMAL(24, 2);   -- total market cap, currency units

-- One row per built index: which stored stocks it is built from. Its bars are in `bars` (source 'built').
CREATE TABLE built_indices (
    symbol    VARCHAR PRIMARY KEY,
    key       VARCHAR NOT NULL,                   -- the definition's key (resources/built_indices.toml)
    name      VARCHAR NOT NULL,
    boards    VARCHAR[] NOT NULL,                 -- the boards whose stocks are members
    built_at  TIMESTAMPTZ NOT NULL
);

-- Per built index and session: how many stocks it averaged and how they were weighted (point in time: a
-- session's row uses that session's bars only).
CREATE TABLE built_index_days (
    symbol     VARCHAR NOT NULL,
    day        DATE NOT NULL,
    members    INTEGER NOT NULL,
    weighting  VARCHAR NOT NULL CHECK (weighting IN ('float_cap', 'equal')),
    fetched_at TIMESTAMPTZ NOT NULL,              -- when it was built (the cache's visibility rule reads it)
    PRIMARY KEY (symbol, day)
);
