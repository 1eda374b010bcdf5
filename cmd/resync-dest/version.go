package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"
)

// The release's name, revision and build date, stamped by scripts/release.sh
// at link time:
//
//	go build -ldflags "-X main.version=v1.2.3 -X main.revision=<commit> -X main.buildDate=<RFC 3339>"
//
// A string variable set by the linker's -X is the accepted Go idiom for
// this (the toolchain has no other way to carry a release's name and build
// time into a binary); these are the only package-level variables and
// nothing assigns them at run time. Where they are empty, build() takes
// what runtime/debug.ReadBuildInfo knows: the module version (`go install
// ...@v1.2.3`) and the VCS revision of a build inside a git checkout.
var (
	version   string
	revision  string // for builds without VCS information (a container build, -buildvcs=false)
	buildDate string
)

// buildInfo is what `resync-dest version` prints.
type buildInfo struct {
	Version   string
	Revision  string // "" when unknown
	Modified  bool   // built from a work tree with uncommitted changes
	Built     string // RFC 3339, "" when not stamped
	Committed string // the revision's commit time, from the build info
	GoVersion string
	Platform  string // GOOS/GOARCH
}

// stamp is what the linker set.
type stamp struct{ version, revision, buildDate string }

// build describes this binary.
func build() buildInfo {
	info, _ := debug.ReadBuildInfo()
	return describeBuild(stamp{version, revision, buildDate}, info, runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH)
}

// describeBuild merges the stamped values with the toolchain's build
// information (nil when the binary has none); a stamped value wins.
func describeBuild(s stamp, info *debug.BuildInfo, goVersion, platform string) buildInfo {
	b := buildInfo{Version: s.version, Revision: s.revision, Built: s.buildDate, GoVersion: goVersion, Platform: platform}
	if info != nil {
		if b.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			b.Version = info.Main.Version
		}
		vcs := map[string]string{}
		for _, kv := range info.Settings {
			vcs[kv.Key] = kv.Value
		}
		if b.Revision == "" {
			b.Revision = vcs["vcs.revision"]
		}
		if b.Revision != "" && b.Revision == vcs["vcs.revision"] {
			b.Modified = vcs["vcs.modified"] == "true"
			b.Committed = vcs["vcs.time"]
		}
	}
	if b.Version == "" {
		b.Version = "dev"
	}
	return b
}

// write prints b for a person (and for `grep`: one "key: value" per line).
func (b buildInfo) write(w io.Writer) error {
	rev := b.Revision
	switch {
	case rev == "":
		rev = "unknown"
	case b.Modified:
		rev += " (modified)"
	}
	built := b.Built
	if built == "" {
		built = "unknown"
	}
	_, err := fmt.Fprintf(w, "resync-dest %s\nrevision: %s\nbuilt: %s\n", b.Version, rev, built)
	if err == nil && b.Committed != "" {
		_, err = fmt.Fprintf(w, "committed: %s\n", b.Committed)
	}
	if err == nil {
		_, err = fmt.Fprintf(w, "go: %s\nplatform: %s\n", b.GoVersion, b.Platform)
	}
	return err
}

// versionCommand is `resync-dest version`; `--version` prints the same.
func versionCommand(d *deps) *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print the version, VCS revision, build date, Go version and platform",
		ArgsUsage: " ",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErrorf("version takes no arguments")
			}
			return build().write(d.io.out)
		},
	}
}

// errVersionShown ends a run whose --version was answered (exit 0).
var errVersionShown = errors.New("version shown")
