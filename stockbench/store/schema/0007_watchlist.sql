-- The watchlist: named groups of symbols, each in the user's order. A symbol may sit in several groups.
CREATE SEQUENCE watchlist_group_seq;

CREATE TABLE watchlist_groups (
    group_id   INTEGER PRIMARY KEY DEFAULT nextval('watchlist_group_seq'),
    name       VARCHAR NOT NULL UNIQUE,
    position   INTEGER NOT NULL,                  -- 0-based order of the groups
    created_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE watchlist_items (
    group_id INTEGER NOT NULL,
    symbol   VARCHAR NOT NULL,                    -- canonical, e.g. 600519.SH
    position INTEGER NOT NULL,                    -- 0-based order within the group
    added_at TIMESTAMPTZ NOT NULL,
    note     VARCHAR NOT NULL DEFAULT '',
    PRIMARY KEY (group_id, symbol)
);

-- Every symbol on any list: the universe `scan --universe watchlist` reads.
CREATE VIEW watchlist AS SELECT DISTINCT symbol FROM watchlist_items;
