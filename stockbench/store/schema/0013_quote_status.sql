-- A quote's trading status as its source states it (trading, suspended, delisted, not_listed) and how many
-- minutes late the source publishes (0: real time as far as the source says; Tencent's Hong Kong feed: 15).
ALTER TABLE quotes ADD COLUMN status VARCHAR NOT NULL DEFAULT 'trading';
ALTER TABLE quotes ADD COLUMN delay_minutes INTEGER NOT NULL DEFAULT 0;
