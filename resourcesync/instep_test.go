package resourcesync

import (
	"strings"
	"testing"
	"time"
)

func TestInStep(t *testing.T) {
	md5a := Digest{Alg: AlgMD5, Hex: strings.Repeat("a", 32)}
	md5b := Digest{Alg: AlgMD5, Hex: strings.Repeat("b", 32)}
	sha := Digest{Alg: AlgSHA256, Hex: strings.Repeat("c", 64)}
	odd := Digest{Alg: "x-crc", Hex: "1234"}
	t1 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	t2 := t1.Add(time.Hour)
	held := Version{Fixity: Fixity{md5a}, Length: 3, HasLength: true, LastMod: t1}
	for _, tc := range []struct {
		name string
		want Version
		in   bool
	}{
		{"same digest", Version{Fixity: Fixity{md5a}}, true},
		{"same digest, another lastmod", Version{Fixity: Fixity{md5a}, LastMod: t2}, true},
		{"other digest, same lastmod", Version{Fixity: Fixity{md5b}, LastMod: t1}, false},
		{"other length", Version{Fixity: Fixity{md5a}, Length: 4, HasLength: true}, false},
		{"same length", Version{Fixity: Fixity{md5a}, Length: 3, HasLength: true}, true},
		{"no shared algorithm: lastmod decides", Version{Fixity: Fixity{sha}, LastMod: t1}, true},
		{"no shared algorithm, other lastmod", Version{Fixity: Fixity{sha}, LastMod: t2}, false},
		{"an algorithm not computed is not compared", Version{Fixity: Fixity{odd}, LastMod: t1}, true},
		{"nothing to compare", Version{}, false},
		{"lastmod only", Version{LastMod: t1}, true},
	} {
		if got := InStep(held, tc.want); got != tc.in {
			t.Errorf("%s: InStep = %v, want %v", tc.name, got, tc.in)
		}
	}
	if InStep(Version{HasLength: true}, Version{HasLength: true}) {
		t.Error("zero lastmods matched")
	}
	h := Held{Fixity: Fixity{md5a}, Length: 3, LastMod: t1}
	if v := h.Version(); !v.HasLength || v.Length != 3 || !v.LastMod.Equal(t1) || len(v.Fixity) != 1 {
		t.Errorf("Held.Version = %+v", v)
	}
}

func TestFixityShares(t *testing.T) {
	md5 := Fixity{{Alg: AlgMD5, Hex: strings.Repeat("a", 32)}}
	sha := Fixity{{Alg: AlgSHA256, Hex: strings.Repeat("c", 64)}}
	odd := Fixity{{Alg: "x-crc", Hex: "1"}}
	if !md5.Shares(append(sha, md5...)) || md5.Shares(sha) || odd.Shares(odd) || Fixity(nil).Shares(md5) {
		t.Error("Shares")
	}
}
