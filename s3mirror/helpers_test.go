package s3mirror

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"

	"github.com/resync-dest/resync-dest/fixtures/scaletest"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// open opens a mirror on a fresh bucket of the test S3 server.
func open(t *testing.T, prefix string, edit func(*Options)) (*Mirror, scaletest.S3) {
	t.Helper()
	s := scaletest.NewS3(t)
	return openOn(t, s, prefix, edit), s
}

func openOn(t *testing.T, s scaletest.S3, prefix string, edit func(*Options)) *Mirror {
	t.Helper()
	o := DefaultOptions()
	o.Endpoint, o.AccessKey, o.SecretKey, o.Region = s.Endpoint, s.AccessKey, s.SecretKey, "us-east-1"
	o.TempDir = t.TempDir()
	if edit != nil {
		edit(&o)
	}
	m, err := Open(context.Background(), Location{Bucket: s.Bucket, Prefix: prefix}, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// put stages content at rel and returns its ticket.
func put(t *testing.T, m *Mirror, rel, content string, mtime time.Time) string {
	t.Helper()
	ticket, err := m.Put(rel, mtime, func(s resourcesync.Sink) (bool, error) {
		_, err := io.Copy(s, strings.NewReader(content))
		return true, err
	})
	if err != nil || ticket == "" {
		t.Fatalf("put %s: ticket %q, %v", rel, ticket, err)
	}
	return ticket
}

// publish publishes tickets and fails the test on any error.
func publish(t *testing.T, m *Mirror, tickets ...string) {
	t.Helper()
	errs, err := m.Publish(tickets)
	if err != nil {
		t.Fatalf("publish: %v", err)
	}
	for i, e := range errs {
		if e != nil {
			t.Fatalf("publish %s: %v", tickets[i], e)
		}
	}
}

// object reads a key straight from the bucket.
func object(t *testing.T, s scaletest.S3, key string) (string, minio.ObjectInfo, bool) {
	t.Helper()
	ctx := context.Background()
	oi, err := s.Client.StatObject(ctx, s.Bucket, key, minio.StatObjectOptions{})
	if minio.ToErrorResponse(err).Code == minio.NoSuchKey {
		return "", oi, false
	}
	if err != nil {
		t.Fatal(err)
	}
	obj, err := s.Client.GetObject(ctx, s.Bucket, key, minio.GetObjectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer obj.Close()
	b, err := io.ReadAll(obj)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), oi, true
}

func putOpts() minio.PutObjectOptions { return minio.PutObjectOptions{} }
