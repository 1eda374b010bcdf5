-- Schema version 7: no index on a change record's time. PruneChanges
-- found the records to delete through (set_id, time) and then deleted each
-- from the table, keyed by URI, in time order: a random page per record.
-- A backlog of 180,000 changes took seconds to prune that way; walking the
-- set's records in key order and deleting as it goes takes a fraction of
-- that, and a set keeps only the records after its cursor and the failed
-- ones, so the walk is no longer than what it deletes plus what is kept.
DROP INDEX IF EXISTS changes_set_time;
