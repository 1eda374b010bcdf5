-- Schema version 4: the other conditions a Source repeats entry by entry, run
-- after run, recorded as out_of_scope records its hosts: one row per kind of
-- condition and host ('lastmod': a lastmod that is not a W3C datetime;
-- 'misdated': a change dated outside its list's interval; 'change': a change
-- attribute of no known kind; 'list-at': a Resource List without at, or dated
-- after the run). A condition already recorded is known, and not
-- warned about again; status counts it.
CREATE TABLE conditions (
    kind       TEXT NOT NULL,
    host       TEXT NOT NULL,     -- host[:port] as the URIs give it; '' for URIs without one
    reason     TEXT NOT NULL,     -- what the first entry showed
    entries    INTEGER NOT NULL CHECK (entries >= 0), -- entries the last run that saw it found
    first_seen TEXT NOT NULL,
    last_seen  TEXT NOT NULL,
    PRIMARY KEY (kind, host)
) WITHOUT ROWID;
