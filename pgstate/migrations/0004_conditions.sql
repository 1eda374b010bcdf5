-- Schema version 4: the other conditions a Source repeats entry by entry, run
-- after run, one row per kind of condition and host, as in the SQLite state's
-- version 4 ('lastmod', 'misdated', 'change', 'list-at'): a condition already
-- recorded is known, and not warned about again; status counts it.
CREATE TABLE conditions (
    kind       TEXT COLLATE "C" NOT NULL,
    host       TEXT COLLATE "C" NOT NULL,  -- host[:port] as the URIs give it; '' for URIs without one
    reason     TEXT NOT NULL,              -- what the first entry showed
    entries    BIGINT NOT NULL CHECK (entries >= 0),
    first_seen TEXT COLLATE "C" NOT NULL,
    last_seen  TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (kind, host)
);
