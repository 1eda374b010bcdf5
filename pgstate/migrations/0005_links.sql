-- Schema version 5: the links of section 14 recorded with a resource, as in
-- the SQLite state's version 5 (describedby, describes, collection,
-- profile, canonical, via; a JSON array of resourcesync.LinkRecord, kept as
-- the text the program wrote): NULL when its entry has none, which stores
-- nothing more; replaced with the record and gone with it.
ALTER TABLE resources ADD COLUMN links TEXT;

-- Provenance (status) reads the resources of a set that have links
-- without reading the others.
CREATE INDEX resources_linked ON resources (set_id) WHERE links IS NOT NULL;
