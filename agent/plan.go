package agent

import (
	"fmt"
	"slices"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// selectSets returns the sets a job covers: the one named by
// onlyCapabilityList, or every readable set discovered.
func selectSets(disc *Discovery, onlyCapabilityList string) ([]*SetInfo, error) {
	if onlyCapabilityList != "" {
		s, ok := disc.Set(onlyCapabilityList)
		if !ok {
			var known []string
			for _, s := range disc.Sets {
				known = append(known, s.CapabilityList)
			}
			return nil, fmt.Errorf("--capability-list %s is not a set of this Source (it has: %v)", onlyCapabilityList, known)
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
	return resourcesync.NewScope(append(disc.SourceURLs(), disc.Start), allowHosts)
}
