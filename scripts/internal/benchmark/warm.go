package benchmark

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// warmDocs bounds how many documents Warm fetches: a fixture Source has a
// few dozen; a loop in a Source's links must not run on.
const warmDocs = 10_000

// Warm fetches, untimed, every document a Source publishes from its
// Source Description at start down - each <loc> ending in .xml, breadth
// first - and nothing else. The fixture Source renders a document the
// first time it is asked for it and keeps it: without Warm the first timed
// run of a benchmark pays for rendering a Resource List or Change List of
// hundreds of thousands of entries (seconds of the Source's CPU, on the
// cores the run shares), the runs after it do not, and the first of two
// contenders in a round looks slower than it is. It gives up after
// warmDocs documents or a minute.
func Warm(start string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	seen := map[string]bool{start: true}
	queue := []string{start}
	for len(queue) > 0 {
		if len(seen) > warmDocs {
			return fmt.Errorf("warm %s: more than %d documents", start, warmDocs)
		}
		u := queue[0]
		queue = queue[1:]
		locs, err := documentLocs(ctx, u)
		if err != nil {
			return fmt.Errorf("warm %s: %w", start, err)
		}
		for _, l := range locs {
			if !seen[l] {
				seen[l] = true
				queue = append(queue, l)
			}
		}
	}
	return nil
}

// documentLocs fetches the document at u and returns the <loc> of each of
// its entries that names a document (ends in .xml), in document order.
func documentLocs(ctx context.Context, u string) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	var locs []string
	for e, err := range resourcesync.NewReader(resp.Body, u, resourcesync.Limits{}).All() {
		if err != nil {
			return nil, err // it names u
		}
		if strings.HasSuffix(e.Loc, ".xml") {
			locs = append(locs, e.Loc)
		}
	}
	return locs, nil
}
