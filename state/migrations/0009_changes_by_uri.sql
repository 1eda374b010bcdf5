-- Schema version 9: change records keyed by URI before time again. Since
-- an apply takes its units from the backlog in URI order (so that the
-- mirror's directories are visited one after another), the writer records
-- a batch's changes in the order of their URIs, their times scattered over
-- the whole history: under the (set, time, ...) key of version 8 each
-- record went to a page of its own again, and the apply of 180,000
-- changes spent 6.7 CPU-s in its commits, 2.7 of them writing those pages
-- to the WAL; keyed by URI, 3.0 and 0.9. A lookup names all four key
-- columns; EachApplied and the prune walk the set's records in key order
-- (they read or delete every record before the cursor anyway).
CREATE TABLE changes_by_uri (
    set_id   INTEGER NOT NULL REFERENCES sets (id) ON DELETE CASCADE,
    uri      TEXT NOT NULL,
    change   TEXT NOT NULL,
    time     TEXT NOT NULL, -- '' when the entry had no time
    list     TEXT NOT NULL DEFAULT '',
    position INTEGER NOT NULL DEFAULT 0,
    failed   INTEGER NOT NULL DEFAULT 0 CHECK (failed IN (0, 1)),
    cause    TEXT NOT NULL DEFAULT '',
    recorded TEXT NOT NULL,
    PRIMARY KEY (set_id, uri, time, change)
) WITHOUT ROWID;
INSERT INTO changes_by_uri (set_id, uri, change, time, list, position, failed, cause, recorded)
    SELECT set_id, uri, change, time, list, position, failed, cause, recorded FROM changes
    ORDER BY set_id, uri, time, change;
DROP TABLE changes;
ALTER TABLE changes_by_uri RENAME TO changes;
