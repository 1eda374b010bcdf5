package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/creack/pty"
	"github.com/mattn/go-runewidth"
)

// runOnTerminal runs a command line in-process with stderr on a
// pseudo-terminal cols columns wide, as a person at a terminal would; it
// returns the exit code, stdout and every byte the terminal received.
func runOnTerminal(t *testing.T, cols int, args ...string) (code int, stdout string, term []byte) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 50, Cols: uint16(cols)}); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	copied := make(chan struct{})
	go func() {
		_, _ = io.Copy(&got, ptmx) // ends with EIO once the terminal's side is closed
		close(copied)
	}()
	var out bytes.Buffer
	cliMu.Lock() // one command line at a time in this process (runCLI)
	defer cliMu.Unlock()
	code = run(context.Background(), append([]string{"resync-dest"}, args...), stdio{out: &out, err: tty},
		context.Background(), func() os.Signal { return nil })
	tty.Close()
	select {
	case <-copied:
	case <-time.After(30 * time.Second):
		t.Fatal("the terminal's output did not end")
	}
	return code, out.String(), got.Bytes()
}

// screen is what a terminal shows after some output: the few sequences the
// progress display and the log use (cursor up, erase below, erase line;
// colours ignored). Its rows do not wrap: a row written past the width is
// kept whole and noted in wrapped (where a real terminal would have
// wrapped it, and the bar's redraw would have gone wrong).
type screen struct {
	width    int
	rows     []string // the text of each row
	row, col int
	over     bool     // the row being written went past the width
	wrapped  []string // rows written past the width
}

func newScreen(width int, b []byte) *screen {
	s := &screen{width: width, rows: []string{""}}
	for len(b) > 0 {
		if b[0] == 0x1b && len(b) > 1 && b[1] == '[' {
			i := 2
			for i < len(b) && (b[i] >= '0' && b[i] <= '9' || b[i] == ';' || b[i] == '?') {
				i++
			}
			if i == len(b) {
				break
			}
			s.escape(string(b[2:i]), b[i])
			b = b[i+1:]
			continue
		}
		r, n := utf8.DecodeRune(b)
		b = b[n:]
		switch r {
		case '\r':
			s.col = 0
		case '\n':
			s.down()
		default:
			w := runewidth.RuneWidth(r)
			if s.col+w > s.width {
				s.over = true
			}
			s.put(r)
			s.col += w
		}
	}
	return s
}

// leave notes the row being left if it went past the width.
func (s *screen) leave() {
	if s.over {
		s.wrapped = append(s.wrapped, s.rows[s.row])
		s.over = false
	}
}

func (s *screen) down() {
	s.leave()
	s.row++
	s.col = 0
	for len(s.rows) <= s.row {
		s.rows = append(s.rows, "")
	}
}

// put writes r at the cursor (the rows hold plain text: one column per
// rune is enough for what is drawn here).
func (s *screen) put(r rune) {
	line := []rune(s.rows[s.row])
	for len(line) < s.col {
		line = append(line, ' ')
	}
	if s.col < len(line) {
		line[s.col] = r
	} else {
		line = append(line, r)
	}
	s.rows[s.row] = string(line)
}

func (s *screen) escape(arg string, cmd byte) {
	n, err := strconv.Atoi(arg)
	if err != nil {
		n = 1
	}
	switch cmd {
	case 'A': // cursor up
		s.leave()
		s.row, s.col = max(s.row-n, 0), 0
	case 'J': // erase below
		s.rows = s.rows[:s.row+1]
		s.eraseLine()
	case 'K': // erase to the end of the line
		s.eraseLine()
	}
}

func (s *screen) eraseLine() {
	if line := []rune(s.rows[s.row]); len(line) > s.col {
		s.rows[s.row] = string(line[:s.col])
	}
}

// lines are the rows shown, without trailing blanks.
func (s *screen) lines() []string {
	s.leave()
	var out []string
	for _, r := range s.rows {
		if r = strings.TrimRight(r, " "); r != "" {
			out = append(out, r)
		}
	}
	return out
}
