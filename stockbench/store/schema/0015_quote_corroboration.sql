-- Cross-source tags of stored quote values (stockbench.data.corroboration owns it): per quote and field (last,
-- prev_close, volume) whether a second service agreed (corroborated), none answered (single_source) or they
-- differ beyond the tolerance (conflicting); `sources` lists the services that answered, `detail` their values.
CREATE TABLE quote_corroboration (
    symbol     VARCHAR NOT NULL,
    quoted_at  TIMESTAMPTZ NOT NULL,
    source     VARCHAR NOT NULL,
    field      VARCHAR NOT NULL,
    tag        VARCHAR NOT NULL,
    sources    VARCHAR NOT NULL,
    detail     VARCHAR NOT NULL,
    checked_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (symbol, quoted_at, source, field)
);
