-- Instrument data (what the code alone cannot tell) and the workspace's own calendar extensions.
CREATE TABLE instruments (
    symbol        VARCHAR PRIMARY KEY,          -- canonical, e.g. 600519.SH
    name          VARCHAR,
    security_type VARCHAR NOT NULL CHECK (security_type IN ('stock', 'fund', 'index')),
    board         VARCHAR NOT NULL,
    board_lot     INTEGER CHECK (board_lot IS NULL OR board_lot > 0),
    list_date     DATE,
    delist_date   DATE,
    fund_kind     VARCHAR,
    source        VARCHAR NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL
);

-- Name history: ST / *ST status on a date is read from the name in force on that date.
CREATE TABLE instrument_names (
    symbol     VARCHAR NOT NULL,
    valid_from DATE NOT NULL,
    name       VARCHAR NOT NULL,
    source     VARCHAR NOT NULL,
    PRIMARY KEY (symbol, valid_from)
);

-- Holidays the user adds for years the shipped calendars do not know yet (or corrections).
-- kind: closed (no session), half_day (HK morning only), open (a session the shipped calendar lacks).
CREATE TABLE market_holidays (
    market   VARCHAR NOT NULL CHECK (market IN ('CN', 'HK')),
    day      DATE NOT NULL,
    kind     VARCHAR NOT NULL CHECK (kind IN ('closed', 'half_day', 'open')),
    note     VARCHAR NOT NULL DEFAULT '',
    added_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (market, day)
);

-- How far the user vouches that market_holidays is complete, beyond the shipped calendar.
CREATE TABLE calendar_extensions (
    market        VARCHAR PRIMARY KEY CHECK (market IN ('CN', 'HK')),
    known_through DATE NOT NULL,
    note          VARCHAR NOT NULL DEFAULT '',
    updated_at    TIMESTAMPTZ NOT NULL
);
