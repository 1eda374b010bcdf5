// Command resync-dest is a ResourceSync Destination: it discovers a Source's
// documents, makes and keeps a verified local copy of its resources, and
// audits that copy.
//
// This package is the command line only: urfave/cli wiring, flags, logging,
// building the adapters (source, mirror, state), mapping errors to exit
// codes, and signals. Each command builds its options from flags and calls a
// plain run<Verb>(ctx, opts, deps) function that tests call directly.
package main
