-- The market data cache. Every row names its source and when it was fetched. Reads go through the
-- point-in-time query layer (stockbench.data.cache), which hides everything dated after the clock.
CREATE TABLE bars (
    symbol       VARCHAR NOT NULL,
    day          DATE NOT NULL,
    open         DECIMAL(18, 4) NOT NULL,
    high         DECIMAL(18, 4) NOT NULL,
    low          DECIMAL(18, 4) NOT NULL,
    close        DECIMAL(18, 4) NOT NULL,
    prev_close   DECIMAL(18, 4),                    -- the exchange's reference price for the day
    volume       BIGINT NOT NULL,                   -- shares
    amount       DECIMAL(24, 4),                    -- currency units
    turnover_pct DECIMAL(12, 6),
    source       VARCHAR NOT NULL,
    fetched_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (symbol, day, source)
);

CREATE TABLE quotes (
    symbol      VARCHAR NOT NULL,
    quoted_at   TIMESTAMPTZ NOT NULL,               -- the quote's own time
    last        DECIMAL(18, 4) NOT NULL,
    prev_close  DECIMAL(18, 4) NOT NULL,
    open        DECIMAL(18, 4),
    high        DECIMAL(18, 4),
    low         DECIMAL(18, 4),
    volume      BIGINT,
    amount      DECIMAL(24, 4),
    limit_up    DECIMAL(18, 4),
    limit_down  DECIMAL(18, 4),
    board_lot   INTEGER,
    currency    VARCHAR,
    pe          DECIMAL(18, 4),
    pb          DECIMAL(18, 4),
    turnover_pct DECIMAL(12, 6),
    source      VARCHAR NOT NULL,
    fetched_at  TIMESTAMPTZ NOT NULL,
    evidence_id VARCHAR,
    PRIMARY KEY (symbol, quoted_at, source)
);

CREATE TABLE money_flow (
    symbol          VARCHAR NOT NULL,
    day             DATE NOT NULL,
    main_net        DECIMAL(24, 4) NOT NULL,
    small_net       DECIMAL(24, 4),
    medium_net      DECIMAL(24, 4),
    large_net       DECIMAL(24, 4),
    super_large_net DECIMAL(24, 4),
    source          VARCHAR NOT NULL,
    fetched_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (symbol, day, source)
);

CREATE TABLE valuation (
    symbol      VARCHAR NOT NULL,
    day         DATE NOT NULL,
    close       DECIMAL(18, 4),
    total_mcap  DECIMAL(24, 2),
    pe_ttm      DECIMAL(18, 4),
    pe_static   DECIMAL(18, 4),
    pb_mrq      DECIMAL(18, 4),
    ps_ttm      DECIMAL(18, 4),
    pcf_ocf_ttm DECIMAL(18, 4),
    source      VARCHAR NOT NULL,
    fetched_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (symbol, day, source)
);

-- Financial statements in long form; a line is visible only from its publication date.
CREATE TABLE financials (
    symbol     VARCHAR NOT NULL,
    period_end DATE NOT NULL,
    statement  VARCHAR NOT NULL CHECK (statement IN ('income', 'balance', 'cashflow', 'indicator')),
    item       VARCHAR NOT NULL,
    value      DECIMAL(28, 6) NOT NULL,
    unit       VARCHAR NOT NULL,
    published  DATE,
    source     VARCHAR NOT NULL,
    fetched_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (symbol, period_end, statement, item, source)
);

CREATE TABLE announcements (
    source       VARCHAR NOT NULL,
    source_id    VARCHAR NOT NULL,
    symbol       VARCHAR NOT NULL,
    published_at TIMESTAMPTZ NOT NULL,
    title        VARCHAR NOT NULL,
    category     VARCHAR NOT NULL,
    url          VARCHAR NOT NULL,
    text         VARCHAR,                           -- the full text, once fetched (untrusted)
    text_sha256  VARCHAR,
    fetched_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (source, source_id)
);

-- Disagreements between sources and other problems found in the data, per instrument.
CREATE TABLE data_problems (
    symbol      VARCHAR NOT NULL,
    kind        VARCHAR NOT NULL,
    detail      JSON NOT NULL,
    detected_at TIMESTAMPTZ NOT NULL,
    as_of       DATE
);

-- Every fetch attempt: what was asked, of whom, and how it ended (failures are gaps, never hidden).
CREATE TABLE fetch_log (
    started_at TIMESTAMPTZ NOT NULL,
    source     VARCHAR NOT NULL,
    what       VARCHAR NOT NULL,
    symbol     VARCHAR NOT NULL,
    url        VARCHAR NOT NULL,
    ok         BOOLEAN NOT NULL,
    status     INTEGER,
    failure    VARCHAR,                             -- FetchFailure.kind
    reason     VARCHAR,
    elapsed_ms INTEGER NOT NULL,
    rows       INTEGER,
    start_day  DATE,                                -- the period asked for (bars, announcements), if any
    end_day    DATE
);
