-- Evidence: every tool response, fetched document and program computation, content-addressed. The same body
-- is stored once (its id is derived from its SHA-256, so an id never changes meaning); run_evidence links
-- each body to the runs that saw it, with when and from where.
CREATE TABLE evidence (
    evidence_id VARCHAR PRIMARY KEY,                -- 'ev-' + the first 24 hex digits of sha256
    sha256      VARCHAR NOT NULL UNIQUE,
    kind        VARCHAR NOT NULL,                   -- quote, bars, financials, document, search_result, computation ...
    source      VARCHAR NOT NULL,                   -- service, URL or program function that produced it
    media_type  VARCHAR NOT NULL,                   -- application/json or text/plain
    fetched_at  TIMESTAMPTZ NOT NULL,               -- first time this body was stored
    bytes       BIGINT NOT NULL,
    body        VARCHAR NOT NULL
);

CREATE TABLE run_evidence (
    run_id      VARCHAR NOT NULL,
    evidence_id VARCHAR NOT NULL,
    kind        VARCHAR NOT NULL,
    source      VARCHAR NOT NULL,
    fetched_at  TIMESTAMPTZ NOT NULL,
    label       VARCHAR NOT NULL DEFAULT '',        -- what it is, for people (e.g. "quote 600519.SH 2024-06-28")
    PRIMARY KEY (run_id, evidence_id)
);
