package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"
)

// logOptions are the global logging flags.
type logOptions struct {
	format  string // console | json
	level   string // trace debug info warn error
	quiet   bool   // warnings and errors only, no progress
	verbose bool   // debug-level logs at least
}

// newLogger builds the one logger of a run; every package gets it (or a
// child) injected. Logs go to stderr so stdout stays for results (--json).
func newLogger(w io.Writer, o logOptions) (zerolog.Logger, error) {
	level := zerolog.InfoLevel
	if o.level != "" {
		l, err := zerolog.ParseLevel(strings.ToLower(o.level))
		if err != nil || l == zerolog.NoLevel {
			return zerolog.Nop(), usageErrorf("--log-level %q: want trace, debug, info, warn or error", o.level)
		}
		level = l
	}
	switch {
	case o.quiet && o.verbose:
		return zerolog.Nop(), usageErrorf("--quiet and --verbose ask for opposite things; give one")
	case o.quiet && level < zerolog.WarnLevel:
		level = zerolog.WarnLevel
	case o.verbose && level > zerolog.DebugLevel:
		level = zerolog.DebugLevel
	}
	// Workers log concurrently; serialise the writes so that any writer
	// will do (a test's buffer as well as os.Stderr).
	sw := zerolog.SyncWriter(w)
	switch o.format {
	case "", "console":
		out := zerolog.ConsoleWriter{Out: sw, TimeFormat: time.TimeOnly, NoColor: !isTerminal(w)}
		return zerolog.New(out).Level(level).With().Timestamp().Logger(), nil
	case "json":
		return zerolog.New(sw).Level(level).Hook(millisecondTime{}), nil
	}
	return zerolog.Nop(), usageErrorf("--log-format %q: want console or json", o.format)
}

// millisecondTime stamps a JSON log line with its time in UTC to the
// millisecond: zerolog's own timestamp has the precision of a global
// setting, seconds by default, which cannot order the lines of a run.
type millisecondTime struct{}

func (millisecondTime) Run(e *zerolog.Event, _ zerolog.Level, _ string) {
	e.Str(zerolog.TimestampFieldName, time.Now().UTC().Format(jsonLogTime))
}

// jsonLogTime is RFC 3339 with milliseconds.
const jsonLogTime = "2006-01-02T15:04:05.000Z07:00"

// isTerminal reports whether w is a terminal (for colours and live progress).
func isTerminal(w io.Writer) bool {
	if s, ok := w.(*logSink); ok {
		w = s.w
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

// userAgent is what every request says it is.
func userAgent() string { return fmt.Sprintf("resync-dest/%s", build().Version) }
