package resourcesync

import (
	"bytes"
	"errors"
	"os"
	"testing"
	"testing/iotest"
)

// fuzzLimits are small, so that the fuzzer reaches the limits too.
func fuzzLimits() Limits {
	return Limits{MaxBytes: 1 << 20, MaxEntries: 200, MaxTokenBytes: 4096, MaxDepth: 16, MaxLinks: 8, MaxAttrs: 16}
}

// FuzzReader: the Reader never panics, every error is a *ParseError
// wrapping one of the sentinels, reading one byte at a time gives the same
// result, and every document it accepts reads back the same after
// WriteDocument.
func FuzzReader(f *testing.F) {
	for _, path := range exampleFiles(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add(genList(3))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := ReadDocument(bytes.NewReader(data), "fuzz.xml", fuzzLimits())
		slow, slowErr := ReadDocument(iotest.OneByteReader(bytes.NewReader(data)), "fuzz.xml", fuzzLimits())
		if err != nil || slowErr != nil {
			// Limits on runs of text are checked per buffered run, so the
			// line of such an error may differ; the kind may not.
			if sentinelName(err) != sentinelName(slowErr) {
				t.Fatalf("read at once: %v\nread one byte at a time: %v", err, slowErr)
			}
		} else if a, b := dump(t, doc, nil, true), dump(t, slow, nil, true); !bytes.Equal(a, b) {
			t.Fatalf("read at once:\n%s\nread one byte at a time:\n%s", a, b)
		}
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError: %v", err, err)
			}
			if sentinelName(err) == "none" {
				t.Fatalf("error wraps no sentinel: %v", err)
			}
			return
		}
		var out bytes.Buffer
		if err := WriteDocument(&out, doc); err != nil {
			t.Fatalf("write a document that was read: %v", err)
		}
		// Default limits: writing may lengthen tokens (a quote becomes
		// &quot;) and add namespace declarations.
		again, err := ReadDocument(bytes.NewReader(out.Bytes()), "written.xml", Limits{})
		if err != nil {
			t.Fatalf("read back: %v\n%s", err, out.Bytes())
		}
		if got, want := dump(t, again, nil, false), dump(t, doc, nil, false); !bytes.Equal(got, want) {
			t.Fatalf("round trip changed the document:\n--- after\n%s\n--- before\n%s\n--- written\n%s", got, want, out.Bytes())
		}
	})
}

// FuzzParseDatetime: what parses formats to a datetime that parses to the
// same instant.
func FuzzParseDatetime(f *testing.F) {
	for _, tc := range datetimeCases {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tm, err := ParseDatetime(s)
		if err != nil {
			if !errors.Is(err, ErrDatetime) {
				t.Fatalf("error does not wrap ErrDatetime: %v", err)
			}
			return
		}
		again, err := ParseDatetime(FormatDatetime(tm))
		if err != nil {
			t.Fatalf("%q parsed to %v, whose format %q does not parse: %v", s, tm, FormatDatetime(tm), err)
		}
		if !again.Equal(tm) {
			t.Fatalf("%q: %v formats to %q, which parses to %v", s, tm, FormatDatetime(tm), again)
		}
	})
}

// FuzzParseHash: what parses prints to a hash attribute that parses to the
// same Fixity.
func FuzzParseHash(f *testing.F) {
	for _, tc := range hashCases {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fx, err := ParseHash(s)
		if err != nil {
			if !errors.Is(err, ErrHash) {
				t.Fatalf("error does not wrap ErrHash: %v", err)
			}
			return
		}
		again, err := ParseHash(fx.String())
		if err != nil {
			t.Fatalf("%q parsed to %q, which does not parse: %v", s, fx.String(), err)
		}
		if len(again) != len(fx) {
			t.Fatalf("%q: %q reads back as %q", s, fx.String(), again.String())
		}
		for i := range fx {
			if again[i] != fx[i] {
				t.Fatalf("%q: %q reads back as %q", s, fx.String(), again.String())
			}
		}
	})
}
