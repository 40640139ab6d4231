-- The workspace itself and its settings.
CREATE TABLE workspace (
    id                 VARCHAR PRIMARY KEY,
    kind               VARCHAR NOT NULL CHECK (kind IN ('user', 'demo')),
    created_at         TIMESTAMPTZ NOT NULL,
    created_by_version VARCHAR NOT NULL
);

-- Plain key -> JSON value settings (models, data source order, language, theme, pinned replay clock ...).
-- Never secrets: API keys live in the OS keyring.
CREATE TABLE settings (
    key        VARCHAR PRIMARY KEY,
    value      JSON NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);
