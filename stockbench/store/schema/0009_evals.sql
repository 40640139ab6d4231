-- Eval harness results: one row per eval run and one per case, kept per handbook version and model, so a
-- case that passed under one handbook or engine and fails under the next shows as a regression.
CREATE TABLE eval_runs (
    eval_id          VARCHAR PRIMARY KEY,
    model            VARCHAR NOT NULL,              -- 'offline' or a configured model name
    handbook_version VARCHAR NOT NULL,
    app_version      VARCHAR NOT NULL,              -- stockbench.__version__ that ran it
    started_at       TIMESTAMPTZ NOT NULL,
    seconds          DOUBLE NOT NULL,
    ok               BOOLEAN NOT NULL,
    invariants       JSON NOT NULL                  -- {invariant name: held on every case}
);

CREATE TABLE eval_cases (
    eval_id    VARCHAR NOT NULL,
    case_id    VARCHAR NOT NULL,
    category   VARCHAR NOT NULL CHECK (category IN ('tool_routing', 'citation_validity', 'number_groundedness',
                                                    'failure_recovery', 'usefulness')),
    passed     BOOLEAN NOT NULL,
    status     VARCHAR NOT NULL,                    -- the case run's final status, or 'error'
    run_id     VARCHAR,                             -- in the case's throw-away workspace
    seconds    DOUBLE NOT NULL,
    failures   JSON NOT NULL,                       -- [sentence]: the case's failed checks
    invariants JSON NOT NULL,                       -- {invariant name: [violation]}
    PRIMARY KEY (eval_id, case_id)
);
