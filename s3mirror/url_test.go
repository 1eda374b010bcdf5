package s3mirror

import (
	"testing"
)

func TestParseURL(t *testing.T) {
	for _, c := range []struct {
		in     string
		bucket string
		prefix string
		bad    bool
	}{
		{in: "s3://bucket", bucket: "bucket"},
		{in: "s3://bucket/", bucket: "bucket"},
		{in: "S3://bucket/a/b/", bucket: "bucket", prefix: "a/b"},
		{in: "s3://my.bucket-1//a//b", bucket: "my.bucket-1", prefix: "a/b"},
		{in: "s3://bucket/a b/ü", bucket: "bucket", prefix: "a b/ü"},
		{in: "/data", bad: true},
		{in: "s3://", bad: true},
		{in: "s3://Bucket/x", bad: true},
		{in: "s3://ab/x", bad: true},
		{in: "s3://bucket:9000/x", bad: true},
		{in: "s3://user@bucket/x", bad: true},
		{in: "s3://bucket/x?y", bad: true},
		{in: "s3://bucket/a/../b", bad: true},
		{in: "s3://bucket/./b", bad: true},
		{in: "s3://bucket/m/.resync-dest/x", bad: true},
		{in: "s3://-bucket/x", bad: true},
	} {
		loc, err := ParseURL(c.in)
		if c.bad {
			if err == nil {
				t.Errorf("ParseURL(%q) = %+v, want an error", c.in, loc)
			}
			continue
		}
		if err != nil || loc.Bucket != c.bucket || loc.Prefix != c.prefix {
			t.Errorf("ParseURL(%q) = %+v, %v; want %s %q", c.in, loc, err, c.bucket, c.prefix)
		}
		if again, err := ParseURL(loc.String()); err != nil || again != loc {
			t.Errorf("ParseURL(%q) again: %+v, %v", loc.String(), again, err)
		}
	}
}

func TestFromEnv(t *testing.T) {
	env := map[string]string{
		"AWS_ENDPOINT_URL": "http://127.0.0.1:9000", "AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s",
		"AWS_DEFAULT_REGION": "eu-west-1",
	}
	o := DefaultOptions()
	o.AccessKey = "flag"
	o.FromEnv(func(n string) string { return env[n] })
	if o.Endpoint != "http://127.0.0.1:9000" || o.AccessKey != "flag" || o.SecretKey != "s" || o.Region != "eu-west-1" {
		t.Fatalf("%+v", o)
	}
}

func FuzzParseURL(f *testing.F) {
	for _, s := range []string{"s3://bucket/a/b", "s3://b.c-d/../x", "s3://bucket/.resync-dest", "s3://x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		loc, err := ParseURL(s)
		if err != nil {
			return
		}
		if err := checkRel("fuzz", loc.Prefix); loc.Prefix != "" && err != nil {
			t.Fatalf("%q: prefix %q is not a clean relative path: %v", s, loc.Prefix, err)
		}
		if again, err := ParseURL(loc.String()); err != nil || again != loc {
			t.Fatalf("%q: round trip %+v, %v", s, again, err)
		}
	})
}
