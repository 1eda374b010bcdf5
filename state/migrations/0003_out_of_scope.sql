-- Schema version 3: what the Source lists out of scope (on a host that is not
-- allowed, or not http(s)), one row per host: a condition already recorded is
-- known, and not warned about again; status lists it. The entries themselves
-- are kept as a bounded sample per host.
CREATE TABLE out_of_scope (
    host       TEXT PRIMARY KEY,  -- host[:port] as the URIs give it; '' for URIs without one
    reason     TEXT NOT NULL,     -- the cause given for the first entry
    entries    INTEGER NOT NULL CHECK (entries >= 0), -- entries the last run that saw the host found
    first_seen TEXT NOT NULL,
    last_seen  TEXT NOT NULL
);

CREATE TABLE out_of_scope_entries (
    host TEXT NOT NULL REFERENCES out_of_scope (host) ON DELETE CASCADE,
    uri  TEXT NOT NULL,
    PRIMARY KEY (host, uri)
) WITHOUT ROWID;
