package state

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// EncodeLinks is the stored form of a record's links (a JSON array of
// resourcesync.LinkRecord), or nil - NULL, nothing stored - when there are
// none. Every adapter stores links this way.
func EncodeLinks(links []resourcesync.Link) (any, error) {
	if len(links) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(resourcesync.LinkRecords(links))
	if err != nil {
		return nil, fmt.Errorf("%w: links: %w", ErrInvalid, err)
	}
	return string(b), nil
}

// DecodeLinks reads links stored by EncodeLinks.
func DecodeLinks(s string) ([]resourcesync.Link, error) {
	var recs []resourcesync.LinkRecord
	if err := json.Unmarshal([]byte(s), &recs); err != nil {
		return nil, fmt.Errorf("links: %w", err)
	}
	links, err := resourcesync.LinksOf(recs)
	if err != nil {
		return nil, fmt.Errorf("links: %w", err)
	}
	return links, nil
}

// Origin is a host a set's republished resources came from (§14.8: the
// host their via links name), with how many of them did.
type Origin struct {
	Host      string `json:"host"`
	Resources int64  `json:"resources"`
}

// Origins counts, host by host, the records whose via links name it (a
// record once per host); fn is given each record's stored links. Most
// resources first, then by host. Every adapter counts this way.
func Origins(each func(fn func(stored string) error) error) ([]Origin, error) {
	counts := map[string]int64{}
	err := each(func(stored string) error {
		links, err := DecodeLinks(stored)
		if err != nil {
			return err
		}
		for _, h := range resourcesync.ProvenanceHosts(links) {
			counts[h]++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]Origin, 0, len(counts))
	for h, n := range counts {
		out = append(out, Origin{Host: h, Resources: n})
	}
	slices.SortFunc(out, func(a, b Origin) int {
		return cmp.Or(cmp.Compare(b.Resources, a.Resources), cmp.Compare(a.Host, b.Host))
	})
	return out, nil
}

// Provenance returns the hosts set setID's republished resources came
// from (Origins): it reads only the records that have links. A state
// older than the record of links has none. Safe for concurrent use.
func (db *DB) Provenance(ctx context.Context, setID int64) ([]Origin, error) {
	if db.schema != 0 && db.schema < 5 {
		return []Origin{}, nil
	}
	out, err := Origins(func(fn func(string) error) error {
		rows, err := db.read.QueryContext(ctx,
			`SELECT links FROM resources WHERE set_id = ? AND links IS NOT NULL`, setID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s sql.NullString
			if err := rows.Scan(&s); err != nil {
				return err
			}
			if err := fn(s.String); err != nil {
				return err
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("read the provenance of set %d: %w", setID, err)
	}
	return out, nil
}
