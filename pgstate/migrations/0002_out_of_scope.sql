-- Schema version 2: what the Source lists out of scope (on a host that is not
-- allowed, or not http(s)), one row per host, as in the SQLite state's
-- version 3: a condition already recorded is known, and not warned about
-- again; status lists it. The entries are kept as a bounded sample per host.
CREATE TABLE out_of_scope (
    host       TEXT COLLATE "C" PRIMARY KEY,  -- host[:port] as the URIs give it; '' for URIs without one
    reason     TEXT NOT NULL,                 -- the cause given for the first entry
    entries    BIGINT NOT NULL CHECK (entries >= 0),
    first_seen TEXT COLLATE "C" NOT NULL,
    last_seen  TEXT COLLATE "C" NOT NULL
);

CREATE TABLE out_of_scope_entries (
    host TEXT COLLATE "C" NOT NULL REFERENCES out_of_scope (host) ON DELETE CASCADE,
    uri  TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (host, uri)
);
