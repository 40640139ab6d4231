-- The eval harness gains the "cheating_model" category: eval_cases is rebuilt with the wider category check
-- (DuckDB cannot alter a CHECK constraint in place); every stored row is kept as it was.
CREATE TABLE eval_cases_next (
    eval_id    VARCHAR NOT NULL,
    case_id    VARCHAR NOT NULL,
    category   VARCHAR NOT NULL CHECK (category IN ('tool_routing', 'citation_validity', 'number_groundedness',
                                                    'failure_recovery', 'usefulness', 'cheating_model')),
    passed     BOOLEAN NOT NULL,
    status     VARCHAR NOT NULL,
    run_id     VARCHAR,
    seconds    DOUBLE NOT NULL,
    failures   JSON NOT NULL,
    invariants JSON NOT NULL,
    PRIMARY KEY (eval_id, case_id)
);
INSERT INTO eval_cases_next (eval_id, case_id, category, passed, status, run_id, seconds, failures, invariants)
SELECT eval_id, case_id, category, passed, status, run_id, seconds, failures, invariants FROM eval_cases;
DROP TABLE eval_cases;
ALTER TABLE eval_cases_next RENAME TO eval_cases;
