-- Schema version 2: the sets whose files an earlier version of the URI -> path
-- mapping named (mirror.MappingVersion). A set not listed here holds files named
-- by the current rules: a set recorded from now on starts that way. A write run
-- renames the files of a listed set to their current names, records the new
-- paths, and then removes the set from this table.
--
-- A later version of the mapping adds a migration that lists every set not
-- yet listed with the version it replaces:
--   INSERT OR IGNORE INTO older_names (set_id, mapping) SELECT id, 2 FROM sets;
CREATE TABLE older_names (
    set_id  INTEGER PRIMARY KEY REFERENCES sets (id) ON DELETE CASCADE,
    mapping INTEGER NOT NULL CHECK (mapping >= 1)
);

-- Every set recorded before this step was named by version 1.
INSERT INTO older_names (set_id, mapping) SELECT id, 1 FROM sets;
