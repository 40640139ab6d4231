-- Human reviews of published reports. Append-only: a changed mind is a new review, never an UPDATE (the
-- latest review of a report is the one that counts in aggregates; earlier ones stay for the lineage).
-- The free-text comment is for people only: no prompt ever includes it (the next run on the symbol reads
-- sanitised aggregates of the reason codes, verdicts and scores; see stockbench/research/reviews.py).
CREATE SEQUENCE review_seq;

CREATE TABLE reviews (
    review_id    VARCHAR PRIMARY KEY,
    seq          BIGINT NOT NULL DEFAULT nextval('review_seq'),  -- recording order (a replay clock stands still)
    run_id       VARCHAR NOT NULL,                  -- the reviewed run
    report_id    VARCHAR NOT NULL,                  -- the report it published
    symbol       VARCHAR NOT NULL,
    verdict      VARCHAR NOT NULL CHECK (verdict IN ('accept', 'revise', 'reject')),
    reasons      VARCHAR[] NOT NULL,                -- reason codes from the fixed list (reviews.REASONS)
    scores       JSON NOT NULL,                     -- {score name: whole number within its range (reviews.SCORES)}
    comment      VARCHAR NOT NULL DEFAULT '',       -- free text: shown to people, never sent to a model
    revised_by   VARCHAR,                           -- a run named by the reviewer as the revision (revise only)
    reviewed_at  TIMESTAMPTZ NOT NULL
);
