-- Schema version 3: the Sources workers keep in step. `resync-dest worker
-- --config FILE` records each Source of the file here (its key is its URL;
-- options is its entry of the file, with the file's defaults, as JSON), so
-- that any worker of the database can run its jobs without the file.
CREATE TABLE sources (
    key        TEXT COLLATE "C" PRIMARY KEY,
    options    JSONB NOT NULL,
    registered TEXT COLLATE "C" NOT NULL
);

-- The sets whose baseline a worker split into one job per Resource List of
-- its index: once those jobs are done, the set's own job finishes the
-- baseline (every resource is then held: it records the baseline point
-- and applies deletions) and forgets the split.
CREATE TABLE splits (
    capability_list TEXT COLLATE "C" PRIMARY KEY,
    parts           INTEGER NOT NULL,
    split           TEXT COLLATE "C" NOT NULL
);
