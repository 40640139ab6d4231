-- Seals: each published report carries a hash over every stored field and the evidence of its run, chained to
-- the previous report's seal (a hash chain over the workspace in publication order), so an edit of any stored
-- report, or a deleted or reordered one, is seen by `reports verify`. Reports published before this migration
-- are sealed by it as they stand (stockbench.store.seals.backfill runs in the same transaction).
ALTER TABLE reports ADD COLUMN seq BIGINT;              -- publication order in this workspace, from 1
ALTER TABLE reports ADD COLUMN sealed_fields JSON;      -- {field: sha256 of its canonical form}
ALTER TABLE reports ADD COLUMN prev_seal VARCHAR;       -- the seal of the report with seq - 1 ('' for the first)
ALTER TABLE reports ADD COLUMN seal VARCHAR;            -- sha256 over sealed_fields and prev_seal

-- The evidence each journaled action produced (its ids, on the result row): evidence linked to a run that no
-- action of that run produced was not seen by the run.
ALTER TABLE run_events ADD COLUMN evidence JSON;
