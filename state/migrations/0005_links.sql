-- Schema version 5: the links of section 14 recorded with a resource
-- (describedby, describes, collection, profile, canonical, via;
-- resourcesync.Recorded), as a JSON array of resourcesync.LinkRecord. NULL
-- when its entry has none - the common case, which stores nothing more.
-- The links live in the resource's row, so they are replaced with its
-- record and gone with it.
ALTER TABLE resources ADD COLUMN links TEXT;

-- Provenance (status) reads the resources of a set that have links without
-- reading the others; a row without links is not in this index.
CREATE INDEX resources_linked ON resources (set_id) WHERE links IS NOT NULL;
