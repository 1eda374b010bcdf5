package source

import (
	"fmt"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/rs/zerolog"
)

// leveledLogger routes go-retryablehttp's lines into zerolog, all at debug
// level: its "request failed" lines describe attempts that this package
// retries or turns into a returned error, so at higher levels they would
// log an error the caller will also report.
type leveledLogger struct{ l zerolog.Logger }

var _ retryablehttp.LeveledLogger = leveledLogger{}

func (z leveledLogger) Error(msg string, kv ...any) { z.log(msg, kv) }
func (z leveledLogger) Info(msg string, kv ...any)  { z.log(msg, kv) }
func (z leveledLogger) Debug(msg string, kv ...any) { z.log(msg, kv) }
func (z leveledLogger) Warn(msg string, kv ...any)  { z.log(msg, kv) }

func (z leveledLogger) log(msg string, kv []any) {
	e := z.l.Debug()
	if e == nil { // disabled: skip the conversions below
		return
	}
	for i, v := range kv {
		switch v := v.(type) {
		case error: // zerolog would marshal an error value as an empty object
			kv[i] = v.Error()
		case fmt.Stringer: // *url.URL, time.Duration: readable, not a struct dump
			kv[i] = v.String()
		}
	}
	e.Fields(kv).Msg(msg)
}
