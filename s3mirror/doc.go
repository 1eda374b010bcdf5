// Package s3mirror keeps a Destination's mirror in S3-compatible object
// storage (s3://BUCKET/PREFIX): the same URI → path mapping as on disk
// (mirror.Mapper, MAPPING.md), each path stored as the object
// PREFIX/path, and the same methods the sync paths and the audit call on
// a local mirror (Put, Publish, Discard, Remove, Stat, HashFile, Walk,
// Path, URI), so that the engine runs unchanged over a bucket.
//
// # Writing: stage locally, publish with one verified PUT
//
// Put writes the new content into a local temp file (Options.TempDir),
// hashing it on the way (MD5 and SHA-256), and stages it; nothing is in
// the bucket yet, and fill has verified the bytes against the Source's
// length and hashes before Put returns. Publish uploads the staged files
// of a batch, several at once: each is one PUT (a multipart upload past
// the part size), atomic in S3 - an object is either absent, its previous
// version or the whole new one, never a part - carrying Content-MD5 so
// that the server checks the bytes it stores, and the length, digests and
// the Source's lastmod as object metadata (x-amz-meta-resync-*). Only then
// does the caller record the batch in the state, so the state never claims
// an object the bucket does not hold, and nothing unverified is ever
// visible under a final key. A staged file that is never published stays
// local and is removed by Discard or Close; the bucket has no temp objects
// to sweep.
//
// # The lock
//
// One write run per mirror: Lock creates PREFIX/.resync-dest/lock with a
// conditional PUT (If-None-Match: *), holding a lease that a goroutine
// renews (If-Match: its ETag). A lock whose lease ran out - its holder was
// killed - is taken over the same way; a run that failed to renew its
// lease has lost the lock, and its next Publish fails rather than write
// beside the new holder. Read-only runs (audit, status, dry runs) take no
// lock. Workers on a PostgreSQL state do not take it either: their job's
// lease in the database is what makes a Source single-owner there.
//
// Nothing but the objects under PREFIX/ is ever written or deleted, and no
// mapped path reaches into PREFIX/.resync-dest/.
package s3mirror
