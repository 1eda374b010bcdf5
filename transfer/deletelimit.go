package transfer

import (
	"fmt"
	"strconv"
	"strings"
)

// DeleteLimit is --max-delete: a count, or a percentage of the set. The
// zero value allows no deletion at all.
type DeleteLimit struct {
	Count     int64
	Percent   float64
	IsPercent bool
}

// ParseDeleteLimit parses "N" or "P%".
func ParseDeleteLimit(s string) (DeleteLimit, error) {
	s = strings.TrimSpace(s)
	if p, ok := strings.CutSuffix(s, "%"); ok {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || f < 0 || f > 100 {
			return DeleteLimit{}, fmt.Errorf("max-delete %q: want a count or a percentage between 0%% and 100%%", s)
		}
		return DeleteLimit{Percent: f, IsPercent: true}, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return DeleteLimit{}, fmt.Errorf("max-delete %q: want a count or a percentage such as 10%%", s)
	}
	return DeleteLimit{Count: n}, nil
}

// All reports whether the limit allows every deletion (100%): a guard that
// counts against a total including every file it counts can skip the
// count.
func (l DeleteLimit) All() bool { return l.IsPercent && l.Percent >= 100 }

// Allows reports whether deleting n of a set of size total is within the
// limit.
func (l DeleteLimit) Allows(n, total int64) bool {
	if !l.IsPercent {
		return n <= l.Count
	}
	if n == 0 {
		return true
	}
	if total == 0 {
		return l.Percent >= 100
	}
	return float64(n)*100 <= l.Percent*float64(total)
}

func (l DeleteLimit) String() string {
	if l.IsPercent {
		return strconv.FormatFloat(l.Percent, 'f', -1, 64) + "%"
	}
	return strconv.FormatInt(l.Count, 10)
}
