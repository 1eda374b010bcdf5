-- Schema version 6: one index on a resource's path instead of two. Every
-- record written or removed updated both (set_id, path) and (path, set_id):
-- a third of the B-tree work of a commit. The only lookup by path alone -
-- which sets hold a file at a path (PathHolders), and a rename of a
-- record (Repath) - now asks each set through (set_id, path) or the
-- primary key: a Source has a few sets, a mirror 200,000 files.
DROP INDEX IF EXISTS resources_path;
