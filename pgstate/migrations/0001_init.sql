-- Schema version 1 of the resync-dest state in PostgreSQL: the same records
-- as the SQLite state (state/migrations), plus the leases that fence the
-- writes of workers.
--
-- Conventions (as in SQLite, so that both adapters behave alike):
-- * Times are TEXT in UTC, fixed width ('2006-01-02T15:04:05.000000000Z'),
--   compared in byte order (COLLATE "C"), so that string order is
--   chronological and nanoseconds survive; a zero time is NULL, except in
--   primary-key columns, where it is ''.
-- * Paths and URIs are COLLATE "C": byte order, the order in which paths
--   are merged against the mirror's walk.

CREATE TABLE sets (
    id                 BIGSERIAL PRIMARY KEY,
    capability_list    TEXT COLLATE "C" NOT NULL UNIQUE,
    source             TEXT NOT NULL DEFAULT '',
    created            TEXT COLLATE "C" NOT NULL,
    baseline_at        TEXT COLLATE "C",
    baseline_completed TEXT COLLATE "C",
    via                TEXT NOT NULL DEFAULT '',
    cursor             TEXT COLLATE "C"
);

CREATE TABLE resources (
    set_id        BIGINT NOT NULL REFERENCES sets (id) ON DELETE CASCADE,
    uri           TEXT COLLATE "C" NOT NULL,
    path          TEXT COLLATE "C" NOT NULL,
    length        BIGINT NOT NULL CHECK (length >= 0),
    fixity        TEXT NOT NULL DEFAULT '',
    lastmod       TEXT COLLATE "C",
    etag          TEXT NOT NULL DEFAULT '',
    last_modified TEXT NOT NULL DEFAULT '',
    fetched       TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (set_id, uri)
);
CREATE INDEX resources_set_path ON resources (set_id, path, uri);
CREATE INDEX resources_path ON resources (path, set_id);

CREATE TABLE failures (
    set_id   BIGINT NOT NULL REFERENCES sets (id) ON DELETE CASCADE,
    uri      TEXT COLLATE "C" NOT NULL,
    cause    TEXT NOT NULL,
    at       TEXT COLLATE "C" NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 1 CHECK (attempts >= 1),
    PRIMARY KEY (set_id, uri)
);

CREATE TABLE changes (
    set_id   BIGINT NOT NULL REFERENCES sets (id) ON DELETE CASCADE,
    uri      TEXT COLLATE "C" NOT NULL,
    change   TEXT COLLATE "C" NOT NULL,
    time     TEXT COLLATE "C" NOT NULL,
    list     TEXT NOT NULL DEFAULT '',
    position BIGINT NOT NULL DEFAULT 0,
    failed   BOOLEAN NOT NULL DEFAULT FALSE,
    cause    TEXT NOT NULL DEFAULT '',
    recorded TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (set_id, uri, time, change)
);
CREATE INDEX changes_set_time ON changes (set_id, time, uri, change);

CREATE TABLE lists_done (
    set_id     BIGINT NOT NULL REFERENCES sets (id) ON DELETE CASCADE,
    url        TEXT COLLATE "C" NOT NULL,
    from_time  TEXT COLLATE "C",
    until_time TEXT COLLATE "C",
    done       TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (set_id, url)
);

CREATE TABLE runs (
    id        BIGSERIAL PRIMARY KEY,
    kind      TEXT COLLATE "C" NOT NULL,
    started   TEXT COLLATE "C" NOT NULL,
    ended     TEXT COLLATE "C",
    status    TEXT COLLATE "C" NOT NULL,
    exit_code INTEGER NOT NULL DEFAULT 0,
    listed    BIGINT NOT NULL DEFAULT 0,
    created   BIGINT NOT NULL DEFAULT 0,
    updated   BIGINT NOT NULL DEFAULT 0,
    unchanged BIGINT NOT NULL DEFAULT 0,
    deleted   BIGINT NOT NULL DEFAULT 0,
    failed    BIGINT NOT NULL DEFAULT 0,
    skipped   BIGINT NOT NULL DEFAULT 0,
    bytes     BIGINT NOT NULL DEFAULT 0,
    message   TEXT NOT NULL DEFAULT ''
);

CREATE TABLE run_sets (
    run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    set_id BIGINT NOT NULL REFERENCES sets (id) ON DELETE CASCADE,
    PRIMARY KEY (run_id, set_id)
);

-- The leases of the workers' jobs. A job takes its key's lease (one per
-- Source) by raising its epoch; every write the job makes checks, in its
-- transaction, that the epoch is still its own (Fence). A worker that
-- stalled past its lease and was replaced thus has its late writes
-- refused. The server's clock decides expiry, so workers' clocks need not
-- agree.
CREATE TABLE leases (
    key     TEXT COLLATE "C" PRIMARY KEY,
    epoch   BIGINT NOT NULL,
    owner   TEXT NOT NULL,
    expires TIMESTAMPTZ NOT NULL
);
