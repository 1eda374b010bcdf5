-- Schema version 6: change records keyed by (set, time, URI, change), as in
-- the SQLite state's version 8, instead of (set, URI, time, change) with a
-- second index on (set, time, URI, change). Every record written went into
-- both B-trees, and the primary key's entries of a batch - keyed by URI -
-- lay scattered over its pages. The writer records a Change List's changes
-- in about the order of their times, so one time-first key takes a batch's
-- records at its end; EachApplied pages through it, the prune reads a range
-- of it, and ChangeStatus and the upsert's conflict target name all four
-- columns, in any order. The records are kept as they are.
ALTER TABLE changes DROP CONSTRAINT changes_pkey;
ALTER TABLE changes ADD CONSTRAINT changes_pkey PRIMARY KEY (set_id, time, uri, change);
DROP INDEX changes_set_time;
