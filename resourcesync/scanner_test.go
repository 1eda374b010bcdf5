package resourcesync

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"
)

// TestCharClass checks the byte tables against their definitions.
func TestCharClass(t *testing.T) {
	for c := range 256 {
		b := byte(c)
		var want byte
		if b >= 0x20 && b < 0x80 && !strings.ContainsRune("<&]", rune(b)) || b == '\t' {
			want |= clText
		}
		if b >= 0x20 && b < 0x80 && !strings.ContainsRune("<&\"'", rune(b)) {
			want |= clAttr
		}
		letter := 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
		if letter || '0' <= b && b <= '9' || strings.ContainsRune("-._:", rune(b)) {
			want |= clName
		}
		if letter || b == '_' || b == ':' {
			want |= clNameStart
		}
		if charClass[c] != want {
			t.Errorf("charClass[%#x] = %#x, want %#x", c, charClass[c], want)
		}
		var hex byte
		switch {
		case '0' <= b && b <= '9' || 'a' <= b && b <= 'f':
			hex = 1
		case 'A' <= b && b <= 'F':
			hex = 2
		}
		if hexClass[c] != hex {
			t.Errorf("hexClass[%#x] = %d, want %d", c, hexClass[c], hex)
		}
	}
	if len(charClass) != 256 || len(hexClass) != 256 {
		t.Fatal("tables are not 256 bytes")
	}
}

// TestFirstSpecial checks the eight-bytes-at-a-time search against a plain
// loop, at every offset and for every byte value.
func TestFirstSpecial(t *testing.T) {
	base := []byte("abcdefghijklmnopqrstuvwxyz0123456789")
	for _, quote := range []byte{0, '"', '\''} {
		for c := range 256 {
			for at := range len(base) {
				b := append([]byte(nil), base...)
				b[at] = byte(c)
				want := len(b)
				for i, x := range b {
					var special bool
					if quote == 0 {
						special = charClass[x]&clText == 0 || x == '\t'
					} else {
						special = charClass[x]&clAttr == 0 && x != '"' && x != '\'' || x == quote
					}
					if special {
						want = i
						break
					}
				}
				if got := firstSpecial(b, 0, quote); got != want {
					t.Fatalf("firstSpecial(%q, quote %q) = %d, want %d", b, quote, got, want)
				}
			}
		}
	}
}

// TestReaderReadSizes reads documents one byte at a time and in uneven
// pieces, so that every token is split by refills somewhere, and checks
// that the result does not depend on it.
func TestReaderReadSizes(t *testing.T) {
	docs := map[string][]byte{"generated": genList(300)}
	for _, path := range exampleFiles(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		docs[path] = data
	}
	for _, tc := range readerErrorCases {
		docs[tc.name] = []byte(tc.doc)
	}
	docs["text"] = []byte("\xef\xbb\xbf<?xml version='1.0'?><!-- c -->\r\n" + testHead +
		"<url><loc> <![CDATA[a<b]]>&amp;&#x1F600;<!--x-->\u00e9\r\n</loc><rs:md type='a\"b&lt;' length=\"1\"/></url></urlset><!-- end -->\n")
	for name, data := range docs {
		want, wantErr := ReadDocument(bytes.NewReader(data), "test.xml", Limits{})
		for _, rd := range []struct {
			how string
			r   io.Reader
		}{
			{"one byte", iotest.OneByteReader(bytes.NewReader(data))},
			{"halves", iotest.HalfReader(bytes.NewReader(data))},
			{"data and error together", iotest.DataErrReader(bytes.NewReader(data))},
		} {
			got, err := ReadDocument(rd.r, "test.xml", Limits{})
			if g, w := dump(t, got, err, true), dump(t, want, wantErr, true); !bytes.Equal(g, w) {
				t.Errorf("%s read %s:\n%s\nwant\n%s", name, rd.how, g, w)
			}
		}
	}
}
