-- Schema version 8: change records keyed by time before URI. The writer
-- records the changes of a Change List in about the order of their times,
-- so under a (set, time, ...) key each batch appends to a few pages at the
-- end of the table; under (set, URI, ...) every record went to a page of
-- its own: a backlog's apply spent a quarter of its CPU time in its
-- commits, most of it writing those pages. Every lookup names all four
-- key columns or a time range, and the prune deletes by time, so none
-- loses by the new order.
CREATE TABLE changes_by_time (
    set_id   INTEGER NOT NULL REFERENCES sets (id) ON DELETE CASCADE,
    uri      TEXT NOT NULL,
    change   TEXT NOT NULL,
    time     TEXT NOT NULL, -- '' when the entry had no time
    list     TEXT NOT NULL DEFAULT '',
    position INTEGER NOT NULL DEFAULT 0,
    failed   INTEGER NOT NULL DEFAULT 0 CHECK (failed IN (0, 1)),
    cause    TEXT NOT NULL DEFAULT '',
    recorded TEXT NOT NULL,
    PRIMARY KEY (set_id, time, uri, change)
) WITHOUT ROWID;
INSERT INTO changes_by_time (set_id, uri, change, time, list, position, failed, cause, recorded)
    SELECT set_id, uri, change, time, list, position, failed, cause, recorded FROM changes;
DROP TABLE changes;
ALTER TABLE changes_by_time RENAME TO changes;
