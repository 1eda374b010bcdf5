-- Schema version 1 of the resync-dest state.
--
-- Conventions:
-- * Times are TEXT in UTC, fixed width ('2006-01-02T15:04:05.000000000Z'),
--   so that string order is chronological and indexes on them work; a zero
--   time is NULL, except in primary-key columns, where it is '' (which sorts
--   first, as the zero time does).
-- * Columns are never declared DATETIME/TIMESTAMP: the driver would then
--   convert them itself.
-- * Text is compared in byte order (BINARY, the default collation), the
--   order in which paths are merged against the mirror's walk.
-- * Every per-set table references sets(id) with ON DELETE CASCADE, so that
--   forgetting a set forgets everything about it.

-- A set of resources: one Capability List of one Source.
CREATE TABLE sets (
    id                 INTEGER PRIMARY KEY,
    capability_list    TEXT NOT NULL UNIQUE,
    source             TEXT NOT NULL DEFAULT '',
    created            TEXT NOT NULL,
    -- The `at` of the Resource List (or Resource Dump) of the last completed
    -- baseline, its `completed`, and how it was made ('list' or 'dump').
    baseline_at        TEXT,
    baseline_completed TEXT,
    via                TEXT NOT NULL DEFAULT '',
    -- The incremental cursor: the time of the first change not yet
    -- processed. Changes before it are done, whether or not a record of
    -- them is still kept in `changes`.
    cursor             TEXT
);

-- What the mirror holds, one row per resource of a set, written only after
-- the bytes are durable. WITHOUT ROWID: the table is its primary-key index,
-- so the point lookup by (set, URI) on the hot path reads one b-tree.
CREATE TABLE resources (
    set_id        INTEGER NOT NULL REFERENCES sets (id) ON DELETE CASCADE,
    uri           TEXT NOT NULL,
    path          TEXT NOT NULL,  -- mirror-relative, slash-separated
    length        INTEGER NOT NULL CHECK (length >= 0),
    fixity        TEXT NOT NULL DEFAULT '', -- resourcesync.Fixity.String()
    lastmod       TEXT,
    etag          TEXT NOT NULL DEFAULT '',
    last_modified TEXT NOT NULL DEFAULT '',
    fetched       TEXT NOT NULL,
    PRIMARY KEY (set_id, uri)
) WITHOUT ROWID;

-- EachHeld walks one set in path order (the primary key's uri rides along
-- in every index of a WITHOUT ROWID table, so ORDER BY path, uri is served
-- by this index alone).
CREATE INDEX resources_set_path ON resources (set_id, path);
-- PathHolders asks which sets hold a path, so that one set's --delete never
-- removes a file another set holds.
CREATE INDEX resources_path ON resources (path, set_id);

-- Resources that could not be brought in step, with the last cause, until
-- a later run succeeds (Held or Removed clears them).
CREATE TABLE failures (
    set_id   INTEGER NOT NULL REFERENCES sets (id) ON DELETE CASCADE,
    uri      TEXT NOT NULL,
    cause    TEXT NOT NULL,
    at       TEXT NOT NULL, -- the last failure
    attempts INTEGER NOT NULL DEFAULT 1 CHECK (attempts >= 1),
    PRIMARY KEY (set_id, uri)
) WITHOUT ROWID;

-- Changes of Change Lists and Change Dumps that were processed (applied, or
-- failed and to be retried), so that a resume skips exactly those. The key
-- is the change itself (URI, time, kind), not its place in a document: the
-- same change listed again, in another document or after a Source rewrote
-- its lists, is still the same change. Records before the cursor are
-- covered by it and may be pruned, except failed ones.
CREATE TABLE changes (
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

-- PruneChanges deletes by time within a set.
CREATE INDEX changes_set_time ON changes (set_id, time);

-- Closed Change Lists and Change Dump packages whose every change was
-- processed: a later run need not fetch them again.
CREATE TABLE lists_done (
    set_id     INTEGER NOT NULL REFERENCES sets (id) ON DELETE CASCADE,
    url        TEXT NOT NULL,
    from_time  TEXT,
    until_time TEXT,
    done       TEXT NOT NULL,
    PRIMARY KEY (set_id, url)
) WITHOUT ROWID;

-- Runs of the program. A run whose process died keeps status 'running' and
-- no end.
CREATE TABLE runs (
    id        INTEGER PRIMARY KEY,
    kind      TEXT NOT NULL,
    started   TEXT NOT NULL,
    ended     TEXT,
    status    TEXT NOT NULL,
    exit_code INTEGER NOT NULL DEFAULT 0,
    listed    INTEGER NOT NULL DEFAULT 0,
    created   INTEGER NOT NULL DEFAULT 0,
    updated   INTEGER NOT NULL DEFAULT 0,
    unchanged INTEGER NOT NULL DEFAULT 0,
    deleted   INTEGER NOT NULL DEFAULT 0,
    failed    INTEGER NOT NULL DEFAULT 0,
    skipped   INTEGER NOT NULL DEFAULT 0,
    bytes     INTEGER NOT NULL DEFAULT 0,
    message   TEXT NOT NULL DEFAULT ''
);

-- Which sets a run worked on. Kept apart from runs so that forgetting a set
-- does not rewrite history beyond this link.
CREATE TABLE run_sets (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    set_id INTEGER NOT NULL REFERENCES sets (id) ON DELETE CASCADE,
    PRIMARY KEY (run_id, set_id)
) WITHOUT ROWID;
