package agent

import (
	"errors"
	"fmt"
	"slices"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// ErrUnknownSet: the Capability List a job was told to cover (the
// CapabilityList option of Audit, Baseline, Incremental and Sync) is not one
// of the sets discovered. The job fails with it before doing anything; it
// is the user's mistake, not the Source's.
var ErrUnknownSet = errors.New("not a set of this Source")

// selectSets returns the sets a job covers: the one named by
// onlyCapabilityList, or every readable set discovered. A name that is not
// a set fails with ErrUnknownSet.
func selectSets(disc *Discovery, onlyCapabilityList string) ([]*SetInfo, error) {
	if onlyCapabilityList != "" {
		s, ok := disc.Set(onlyCapabilityList)
		if !ok {
			var known []string
			for _, s := range disc.Sets {
				known = append(known, s.CapabilityList)
			}
			return nil, fmt.Errorf("--capability-list %s is %w (it has: %v)", onlyCapabilityList, ErrUnknownSet, known)
		}
		return []*SetInfo{s}, nil
	}
	if len(disc.Sets) == 0 {
		return nil, fmt.Errorf("the Source %s offers no set of resources", disc.Start)
	}
	return slices.Clone(disc.Sets), nil
}

// scope is what a job may fetch: the Source's hosts and the hosts allowed.
func scope(disc *Discovery, allowHosts []string) resourcesync.Scope {
	return disc.Scope(allowHosts)
}
