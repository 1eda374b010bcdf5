-- Schema version 7: change records keyed by (set, URI, time, change) again,
-- as in the SQLite state's version 9. An apply takes its units from the
-- backlog in URI order, so the writer records a batch's changes in the
-- order of their URIs, their times scattered over the whole history: under
-- version 6's time-first key each record went to a page of its own.
-- EachApplied and the prune walk the set's records in key order (they read
-- or delete every record before the cursor anyway); ChangeStatus and the
-- upsert's conflict target name all four columns. The records are kept as
-- they are.
ALTER TABLE changes DROP CONSTRAINT changes_pkey;
ALTER TABLE changes ADD CONSTRAINT changes_pkey PRIMARY KEY (set_id, uri, time, change);
