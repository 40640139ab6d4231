-- A fetch answered from a recording (`stockbench data fetch --replay DIR`) names that recording: `replay` is its
-- folder (NULL: asked live), and its started_at is when the answer it replayed was recorded, not when it replayed.
ALTER TABLE fetch_log ADD COLUMN replay VARCHAR;
