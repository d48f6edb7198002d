// Package errkbtest holds the test data every package's tests share: a
// valid fictional record to vary, the hostile record and in-memory
// datasets (internal/indextest builds indexes of them). Tests use it instead of writing their own builders,
// so a change to the record schema is made here once.
package errkbtest

import (
	"encoding/json"
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/errkb/errkb"
)

// Option changes the record Record builds.
type Option func(r *errkb.Record)

// ID sets the record's id and slug, which is enough to make it distinct
// from other records Record builds.
func ID(id string) Option {
	return func(r *errkb.Record) { r.ID, r.Slug = id, id }
}

// Record returns a valid record of the fictional project acme-labs/gizmo
// with every field errkb reads set, changed by opts in order.
func Record(opts ...Option) *errkb.Record {
	status := 503
	code := 10071
	r := &errkb.Record{
		ID: "f00dfeed00000001", Repo: "acme-labs/gizmo", Slug: "gizmo-jammed",
		ErrorCode: "GZ_JAMMED", ErrorMessage: "gizmo is jammed", MessagePattern: "gizmo %s is jammed",
		ErrorType: "error_code", ErrorClass: "JammedError", HTTPStatus: &status, Severity: "error",
		FilePath: "gizmo.go", LineNumber: 3, SourceCode: "a\nb\nreturn ErrJammed\nd",
		SourceCodeStart: 1, SourceCodeEnd: 4,
		GithubURL:        "https://github.com/acme-labs/gizmo/blob/0000000000000000000000000000000000000000/gizmo.go#L1-L4",
		Documentation:    "The gizmo is jammed. See [the manual](https://example.com/manual).",
		TriggerScenarios: "A part is stuck.", CommonSituations: "After a long run.",
		Solutions: []string{"Unjam it."}, ExampleFix: "gizmo.Unjam()", HandlingStrategy: "Retry once.",
		ValidationCode: "if g.Jammed() {}", TypeGuard: "errors.Is(err, ErrJammed)", TryCatchPattern: "if err != nil {}",
		PreventionTips: []string{"Oil it."}, Tags: []string{"gizmo"}, BackgroundTag: "hardware",
		AnalyzedSha: "0000000000000000000000000000000000000000", AnalyzedAt: "2026-01-01T00:00:00Z",
		SchemaVersion: 2, NumericCode: &code,
		CallSites: []errkb.CallSite{{FilePath: "gizmo.go", LineNumber: 3, Function: "Run",
			GithubURL: "https://github.com/acme-labs/gizmo/blob/0000000000000000000000000000000000000000/gizmo.go#L3"}},
		Wraps: []string{}, WrappedBy: []string{}, GoPackage: "example.com/acme-labs/gizmo",
	}
	for _, o := range opts {
		o(r)
	}
	return r
}

// JSON is record (a *errkb.Record or a map from Fields) as one dataset
// entry: an envelope with the datasetVersion "v-test".
func JSON(record any) []byte {
	b, err := json.Marshal(map[string]any{"record": record, "datasetVersion": "v-test"})
	if err != nil {
		panic(err) // records and maps of JSON values always marshal
	}
	return b
}

// Bare is r as a record without an envelope.
func Bare(r *errkb.Record) []byte {
	b, err := json.Marshal(r)
	if err != nil {
		panic(err) // a Record always marshals
	}
	return b
}

// Fields is Record() as a map of its JSON fields, changed by each change in
// order: for tests that need what a Record cannot hold, such as values of
// the wrong type, missing required fields or unknown keys.
func Fields(changes ...func(fields map[string]any)) map[string]any {
	var fields map[string]any
	b, _ := json.Marshal(Record())
	if err := json.Unmarshal(b, &fields); err != nil {
		panic(err)
	}
	for _, c := range changes {
		c(fields)
	}
	return fields
}

// Files is a dataset folder holding the given files, by slash-separated
// name.
func Files(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, data := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(data)}
	}
	return fsys
}

// FS is a dataset folder holding each record in its own file,
// {repo}/{slug}.json, as the embedded dataset lays them out.
func FS(recs ...*errkb.Record) fstest.MapFS {
	fsys := fstest.MapFS{}
	for _, r := range recs {
		fsys[r.Repo+"/"+r.Slug+".json"] = &fstest.MapFile{Data: JSON(r)}
	}
	return fsys
}

// Folder is FS as a dataset folder named "test".
func Folder(recs ...*errkb.Record) errkb.Folder {
	return errkb.Folder{Name: "test", FS: FS(recs...)}
}

// Dataset loads the records and fails the test on any problem.
func Dataset(t testing.TB, recs ...*errkb.Record) *errkb.Dataset {
	t.Helper()
	return Load(t, Folder(recs...))
}

// Load loads the folders and fails the test on any problem.
func Load(t testing.TB, folders ...errkb.Folder) *errkb.Dataset {
	t.Helper()
	ds, err := errkb.Load(folders...)
	if err != nil {
		t.Fatalf("load test dataset: %v", err)
	}
	return ds
}

// Problems loads the folders and returns the dataset with the problems
// found; any other error fails the test.
func Problems(t testing.TB, folders ...errkb.Folder) (*errkb.Dataset, errkb.Problems) {
	t.Helper()
	ds, err := errkb.Load(folders...)
	var probs errkb.Problems
	if err != nil && !errors.As(err, &probs) {
		t.Fatalf("load: unexpected error %T: %v", err, err)
	}
	return ds, probs
}

// Seed is the embedded dataset, the one the binary serves.
func Seed(t testing.TB) *errkb.Dataset {
	t.Helper()
	return Load(t, errkb.Embedded())
}

// SeedWithHostile is the embedded dataset plus the hostile record.
func SeedWithHostile(t testing.TB) *errkb.Dataset {
	t.Helper()
	return Load(t, errkb.Embedded(), HostileFolder())
}

// SeedFile is the seed record's file in the embedded dataset: a real
// nats-io/nats-server error, the one record every fixture set includes.
const SeedFile = "nats-io/nats-server/js-consumer-offline.json"

// SeedJSON is the seed record's file as the embedded dataset holds it.
func SeedJSON() []byte {
	b, err := fs.ReadFile(errkb.Embedded().FS, SeedFile)
	if err != nil {
		panic(err) // the file is compiled into the binary
	}
	return b
}

// SeedFolder is a dataset folder holding only the seed record, read from
// the embedded dataset, so that fixture sets stay the same size as the
// embedded dataset grows.
func SeedFolder() errkb.Folder {
	return errkb.Folder{Name: "dataset", FS: fstest.MapFS{SeedFile: {Data: SeedJSON()}}}
}
