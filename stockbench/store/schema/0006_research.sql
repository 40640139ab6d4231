-- Research runs, their journal, the handbook versions they locked, and the reports they published.

-- Every handbook version any run used, with its full text, so runs can resume and be audited later.
CREATE TABLE handbook_versions (
    version    VARCHAR PRIMARY KEY,                 -- content hash of the handbook folder
    files      JSON NOT NULL,                       -- {relative path: text}
    stored_at  TIMESTAMPTZ NOT NULL
);

CREATE TABLE runs (
    run_id           VARCHAR PRIMARY KEY,
    symbol           VARCHAR NOT NULL,
    kind             VARCHAR NOT NULL CHECK (kind IN ('full', 'question', 'quick_review')),
    question         VARCHAR,
    model            VARCHAR NOT NULL,
    account          VARCHAR,
    as_of            TIMESTAMPTZ,                   -- the replay clock's instant, for research of the past
    handbook_version VARCHAR NOT NULL,
    plan             JSON NOT NULL,
    cost_ceiling     DECIMAL(18, 6),
    approved         BOOLEAN NOT NULL DEFAULT false,
    created_at       TIMESTAMPTZ NOT NULL
);

-- Run status changes are events too (append-only); the current status is the latest row.
CREATE TABLE run_status (
    run_id      VARCHAR NOT NULL,
    seq         BIGINT NOT NULL,
    status      VARCHAR NOT NULL CHECK (status IN ('running', 'paused', 'published', 'stopped', 'failed')),
    stage       VARCHAR NOT NULL,
    reason      VARCHAR NOT NULL DEFAULT '',
    resume_at   TIMESTAMPTZ,
    changed_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (run_id, seq)
);

-- The journal: an intent before and a result after every action (model call, tool call, gate check,
-- stage transition), keyed by a deterministic idempotency key. A result row is written in the same
-- transaction as the evidence the action produced.
CREATE TABLE run_events (
    run_id     VARCHAR NOT NULL,
    key        VARCHAR NOT NULL,                    -- e.g. analyze/model/3, decide/tool/4/call_1
    phase      VARCHAR NOT NULL CHECK (phase IN ('intent', 'result')),
    kind       VARCHAR NOT NULL CHECK (kind IN ('model_call', 'tool_call', 'gate_check', 'stage', 'program')),
    seq        BIGINT NOT NULL,
    payload    VARCHAR NOT NULL,                    -- the exact request (intent) or result (result) bytes
    outcome    VARCHAR NOT NULL DEFAULT 'ok',       -- ok | error
    cost       DECIMAL(18, 6),
    logged_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (run_id, key, phase)
);

CREATE TABLE reports (
    report_id        VARCHAR PRIMARY KEY,
    run_id           VARCHAR NOT NULL,
    symbol           VARCHAR NOT NULL,
    published_at     TIMESTAMPTZ NOT NULL,
    as_of            TIMESTAMPTZ,
    title            VARCHAR NOT NULL,
    action           VARCHAR NOT NULL,
    model            VARCHAR NOT NULL,
    offline          BOOLEAN NOT NULL,
    handbook_version VARCHAR NOT NULL,
    markdown         VARCHAR NOT NULL,
    draft            JSON NOT NULL,                 -- the structured report (evidence.frozen.draft_to_json)
    frozen           JSON NOT NULL,                 -- the gate context, frozen for re-checking
    summary          JSON NOT NULL                  -- zones, orders, scenarios, baseline: for lists and the UI
);
