package main

import (
	"encoding/json"
	"io"
	"time"

	"github.com/urfave/cli/v2"
)

// schemaVersion is the version of the --json documents. Fields are added
// within a version, never renamed or removed; a change that would rename
// or remove one makes a new version.
const schemaVersion = 1

// envelope is every command's --json document: the same fields around the
// command's own result, printed whether the command succeeded or not.
type envelope struct {
	SchemaVersion int       `json:"schema_version"`
	Command       string    `json:"command"`
	ExitCode      int       `json:"exit_code"`
	Error         *string   `json:"error"` // null when the command succeeded
	Started       time.Time `json:"started"`
	Finished      time.Time `json:"finished"`
	Dest          *string   `json:"dest"`   // the mirror; null for discover and for several (--config)
	Result        any       `json:"result"` // the command's own document; null when it got no further than an error
}

// jsonDoc collects what a command's envelope says while it runs.
type jsonDoc struct {
	command string
	started time.Time
	dest    string
	result  any
}

// newJSONDoc starts the document of command, now.
func newJSONDoc(command string) *jsonDoc {
	return &jsonDoc{command: command, started: time.Now()}
}

// envelope is the finished document, for the command's error and exit
// status.
func (j *jsonDoc) envelope(err error, code int) envelope {
	e := envelope{SchemaVersion: schemaVersion, Command: j.command, ExitCode: code,
		Started: j.started.UTC(), Finished: time.Now().UTC(), Result: j.result}
	if err != nil {
		msg := err.Error()
		e.Error = &msg
	}
	if j.dest != "" {
		e.Dest = &j.dest
	}
	return e
}

// writeJSON writes v as one indented JSON document; oneLine writes it on
// one line (JSON Lines, for watch's stream).
func writeJSON(w io.Writer, v any, oneLine bool) error {
	enc := json.NewEncoder(w)
	if !oneLine {
		enc.SetIndent("", "  ")
	}
	return enc.Encode(v)
}

// withJSON runs a command's action and, under --json, prints its envelope
// on stdout afterwards, whatever the outcome: a script reads exit_code and
// error there rather than parsing stderr. The action records its result
// and mirror in d.doc.
func withJSON(d *deps, action cli.ActionFunc) cli.ActionFunc {
	return func(c *cli.Context) error {
		if !c.Bool("json") {
			return action(c)
		}
		d.doc = newJSONDoc(c.Command.Name)
		err := action(c)
		if werr := writeJSON(d.io.out, d.doc.envelope(err, exitCode(err, signalOf(d.drain))), false); werr != nil && err == nil {
			return werr
		}
		return err
	}
}

// jsonDest records the mirror for the --json envelope, as soon as the
// command knows it (an error after it still names it); jsonResult records
// the command's result. Both do nothing without --json.
func (d *deps) jsonDest(dest string) {
	if d.doc != nil {
		d.doc.dest = dest
	}
}

func (d *deps) jsonResult(result any) {
	if d.doc != nil {
		d.doc.result = result
	}
}

// eachJSON runs one part of a command that has an envelope of its own
// (one Source of a --config file) and returns that envelope; without
// --json it only runs it.
func (d *deps) eachJSON(command, dest string, run func() error) (*envelope, error) {
	if d.doc == nil {
		return nil, run()
	}
	outer := d.doc
	d.doc = newJSONDoc(command)
	d.doc.dest = dest
	defer func() { d.doc = outer }()
	err := run()
	e := d.doc.envelope(err, exitCode(err, signalOf(d.drain)))
	return &e, err
}
