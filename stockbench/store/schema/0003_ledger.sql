-- The ledger: the user's accounts and money. Entries are append-only: a correction is a void entry
-- (with a reason) that excludes its target; history keeps both. Only stockbench.ledger writes here.
-- Recording order across every entry table: ties at the same instant replay in this order.
CREATE SEQUENCE ledger_seq;

CREATE TABLE accounts (
    name          VARCHAR PRIMARY KEY,
    base_currency VARCHAR NOT NULL CHECK (base_currency IN ('CNY', 'HKD')),
    markets       VARCHAR NOT NULL,                 -- comma-separated: CN, HK
    created_at    TIMESTAMPTZ NOT NULL,
    note          VARCHAR NOT NULL DEFAULT ''
);

-- Commission terms per account and market; a later row (by since) supersedes an earlier one.
CREATE TABLE account_fees (
    account               VARCHAR NOT NULL,
    market                VARCHAR NOT NULL CHECK (market IN ('CN', 'HK')),
    since                 TIMESTAMPTZ NOT NULL,
    commission_rate       DECIMAL(12, 8) NOT NULL CHECK (commission_rate >= 0),
    commission_min        DECIMAL(18, 2) NOT NULL CHECK (commission_min >= 0),
    bundled_exchange_fees BOOLEAN NOT NULL,
    PRIMARY KEY (account, market, since)
);

CREATE TABLE cash_entries (
    entry_id    VARCHAR PRIMARY KEY,
    account     VARCHAR NOT NULL,
    kind        VARCHAR NOT NULL CHECK (kind IN
                ('deposit', 'withdrawal', 'dividend', 'interest', 'fee', 'tax', 'transfer_in', 'transfer_out')),
    currency    VARCHAR NOT NULL,
    amount      DECIMAL(20, 4) NOT NULL,            -- signed: what the entry does to the cash balance
    occurred_at TIMESTAMPTZ NOT NULL,
    symbol      VARCHAR,                            -- for dividends, taxes and fees tied to an instrument
    transfer_id VARCHAR,                            -- links the two legs of a transfer
    fx_rate     DECIMAL(20, 10),                    -- on a transfer between currencies
    note        VARCHAR NOT NULL DEFAULT '',
    recorded_at TIMESTAMPTZ NOT NULL,
    seq         BIGINT NOT NULL DEFAULT nextval('ledger_seq')
);

CREATE TABLE fills (
    fill_id     VARCHAR PRIMARY KEY,
    account     VARCHAR NOT NULL,
    symbol      VARCHAR NOT NULL,
    side        VARCHAR NOT NULL CHECK (side IN ('buy', 'sell')),
    qty         BIGINT NOT NULL CHECK (qty > 0),
    price       DECIMAL(20, 4) NOT NULL CHECK (price > 0),
    currency    VARCHAR NOT NULL,
    executed_at TIMESTAMPTZ NOT NULL,
    trade_date  DATE NOT NULL,                      -- the exchange's local date of the fill
    fees        DECIMAL(20, 4) NOT NULL CHECK (fees >= 0),
    fee_items   JSON NOT NULL,                      -- {item: amount}
    fees_source VARCHAR NOT NULL CHECK (fees_source IN ('computed', 'broker')),
    settlement  VARCHAR NOT NULL CHECK (settlement IN ('T+1', 'T+0')),
    order_id    VARCHAR,
    report_id   VARCHAR,
    note        VARCHAR NOT NULL DEFAULT '',
    recorded_at TIMESTAMPTZ NOT NULL,
    seq         BIGINT NOT NULL DEFAULT nextval('ledger_seq')
);

-- Orders the user placed at the broker (or plans to). Orders never change holdings; status changes
-- are events, and fills may reference an order.
CREATE TABLE orders (
    order_id    VARCHAR PRIMARY KEY,
    account     VARCHAR NOT NULL,
    symbol      VARCHAR NOT NULL,
    side        VARCHAR NOT NULL CHECK (side IN ('buy', 'sell')),
    qty         BIGINT NOT NULL CHECK (qty > 0),
    price       DECIMAL(20, 4) NOT NULL CHECK (price > 0),
    placed_at   TIMESTAMPTZ NOT NULL,
    valid_until DATE,                               -- last session the order is good for
    report_id   VARCHAR,
    note        VARCHAR NOT NULL DEFAULT '',
    recorded_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE order_events (
    order_id VARCHAR NOT NULL,
    event_at TIMESTAMPTZ NOT NULL,
    kind     VARCHAR NOT NULL CHECK (kind IN ('cancelled', 'expired', 'reopened')),
    reason   VARCHAR NOT NULL DEFAULT '',
    PRIMARY KEY (order_id, event_at, kind)
);

-- Corporate actions credited to an account's holding: cash dividends, bonus shares (送股, taxable at
-- par), capitalisation shares (转增) and splits.
CREATE TABLE corporate_actions (
    action_id       VARCHAR PRIMARY KEY,
    account         VARCHAR NOT NULL,
    symbol          VARCHAR NOT NULL,
    kind            VARCHAR NOT NULL CHECK (kind IN ('cash_dividend', 'bonus', 'capitalization', 'split')),
    ex_date         DATE NOT NULL,
    effective_at    TIMESTAMPTZ NOT NULL,           -- the ex-date's start, exchange time
    pay_date        DATE,
    cash_per_share  DECIMAL(20, 8),
    shares_per_share DECIMAL(20, 8),
    qty             BIGINT,                         -- shares credited (bonus, capitalisation, split)
    amount          DECIMAL(20, 4),                 -- cash credited (dividend), before any tax at sale
    currency        VARCHAR NOT NULL,
    taxable         BOOLEAN NOT NULL,
    note            VARCHAR NOT NULL DEFAULT '',
    recorded_at     TIMESTAMPTZ NOT NULL,
    seq             BIGINT NOT NULL DEFAULT nextval('ledger_seq')
);

-- A void excludes one entry (fill, cash entry or corporate action) from every computation.
CREATE TABLE voids (
    target_id   VARCHAR PRIMARY KEY,
    target_kind VARCHAR NOT NULL CHECK (target_kind IN ('fill', 'cash', 'action')),
    reason      VARCHAR NOT NULL,
    voided_at   TIMESTAMPTZ NOT NULL
);

-- Derived state, rebuilt from the entries above in the same transaction as every ledger write:
-- open FIFO lots and per-symbol totals. Never edited by hand; a replay from scratch must equal it.
CREATE TABLE ledger_lots (
    account       VARCHAR NOT NULL,
    symbol        VARCHAR NOT NULL,
    lot_id        VARCHAR NOT NULL,                 -- the buy fill that opened it
    acquired_at   TIMESTAMPTZ NOT NULL,
    acquired_date DATE NOT NULL,                    -- exchange-local date: T+1 shares are sellable after it
    t0            BOOLEAN NOT NULL,                 -- sellable on the day bought (T+0 instruments)
    qty           BIGINT NOT NULL,
    cost          DECIMAL(24, 6) NOT NULL,          -- remaining cost incl. buy fees
    taxable       DECIMAL(24, 6) NOT NULL,          -- dividends received on these shares, taxed at sale
    PRIMARY KEY (account, symbol, lot_id)
);

CREATE TABLE ledger_totals (
    account        VARCHAR NOT NULL,
    symbol         VARCHAR NOT NULL,
    currency       VARCHAR NOT NULL,
    realized_pnl   DECIMAL(24, 6) NOT NULL,
    fees           DECIMAL(24, 6) NOT NULL,
    dividends      DECIMAL(24, 6) NOT NULL,
    dividend_tax   DECIMAL(24, 6) NOT NULL,
    net_invested   DECIMAL(24, 6) NOT NULL,         -- for the diluted cost of the current holding
    PRIMARY KEY (account, symbol)
);

CREATE TABLE ledger_cash (
    account  VARCHAR NOT NULL,
    currency VARCHAR NOT NULL,
    balance  DECIMAL(24, 6) NOT NULL,
    PRIMARY KEY (account, currency)
);
