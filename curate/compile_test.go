package curate_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/curate"
)

var update = flag.Bool("update", false, "rewrite dataset/"+curate.FailuresFile+" with the samples that do not compile")

// sampleModule is the module that requires the versions the dataset names.
const sampleModule = "testdata/snippets"

// TestSamplesCompile type-checks every Go code sample of every record of the
// embedded dataset, curated and extracted (the code after an exampleFix's
// fix, validationCode, tryCatchPattern, typeGuard), against nats.go and
// nats-server at the versions the dataset was extracted from. Samples that
// do not compile are listed, with the compiler's messages, in
// dataset/compile-failures.tsv, which the pages read: a sample that stops
// compiling, or starts to, fails the test until the file says so. Curated
// samples must all compile; the seed's, served as received, must not.
func TestSamplesCompile(t *testing.T) {
	recs := allRecords(t)
	imports := importTable(recs)
	var paths []string
	add := func(p string) {
		if p != "" && !strings.Contains(p, "/internal/") && !strings.HasPrefix(p, "internal/") && !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	for _, p := range imports {
		add(p)
	}
	for _, lr := range recs {
		add(lr.rec.GoPackage)
	}
	slices.Sort(paths)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	checker, err := curate.NewChecker(ctx, sampleModule, paths)
	if err != nil {
		needNetwork(t, err)
	}

	var (
		got      []curate.Failure
		samples  int
		guards   int
		guardsOK int
	)
	for _, lr := range recs {
		r := lr.rec
		imports := ownImports(imports, r)
		for _, s := range curate.Samples(r) {
			samples++
			var other map[string]curate.Wrapped
			if s.Field != "typeGuard" {
				other = guardFile(r, s.Code, imports)
			}
			msgs := checker.Check(curate.Wrap(s.Code, imports), other)
			for _, m := range msgs {
				got = append(got, curate.Failure{Repo: r.Repo, Slug: r.Slug, Field: s.Field, Message: m})
			}
			if s.Field == "typeGuard" && lr.extracted {
				guards++
				if len(msgs) == 0 {
					guardsOK++
				}
			}
			if len(msgs) > 0 && lr.curated {
				t.Errorf("%s (%s) %s does not compile:\n  %s", r.Path(), r.Location.File, s.Field, strings.Join(msgs, "\n  "))
			}
		}
	}
	t.Logf("%d samples of %d records checked; %d messages; extracted typeGuards: %d of %d compile", samples, len(recs), len(got), guardsOK, guards)

	checkSeedMarked(t, recs, got)

	if *update {
		var b bytes.Buffer
		if err := curate.WriteFailures(&b, got); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "dataset", curate.FailuresFile), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote dataset/%s; run make prebuilt", curate.FailuresFile)
		return
	}
	f, err := errkb.Embedded().FS.Open(curate.FailuresFile)
	if err != nil {
		t.Fatalf("dataset/%s: %v (write it with -update)", curate.FailuresFile, err)
	}
	defer f.Close()
	want, err := curate.ReadFailures(f)
	if err != nil {
		t.Fatal(err)
	}
	added, gone := curate.DiffFailures(got, want)
	for _, a := range added {
		t.Errorf("does not compile, and dataset/%s does not say so: %s", curate.FailuresFile, a)
	}
	for _, g := range gone {
		t.Errorf("listed in dataset/%s, but now compiles or fails otherwise: %s", curate.FailuresFile, g)
	}
	if len(added)+len(gone) > 0 {
		t.Log("when the change is intended: go test ./curate -run TestSamplesCompile -update, then make prebuilt")
	}
}

// checkSeedMarked: the seed, served as received, uses a constant nats.go
// does not have in all four samples, so each must be listed as failing with
// that reason; and each record whose samples a curated record replaces
// must have failing samples to replace.
func checkSeedMarked(t *testing.T, recs []loadedRecord, got []curate.Failure) {
	t.Helper()
	failing := map[string][]string{} // repo/slug -> fields
	for _, f := range got {
		k := f.Repo + "/" + f.Slug
		if !slices.Contains(failing[k], f.Field) {
			failing[k] = append(failing[k], f.Field)
		}
	}
	seed := "nats-io/nats-server/js-consumer-offline"
	slices.Sort(failing[seed])
	if want := []string{"exampleFix", "tryCatchPattern", "typeGuard", "validationCode"}; !slices.Equal(failing[seed], want) {
		t.Errorf("the seed's failing samples are %v, want all four: %v", failing[seed], want)
	}
	var undefined bool
	for _, f := range got {
		if f.Repo+"/"+f.Slug == seed && strings.Contains(f.Message, "undefined: nats.JSConsumerOfflineErr") {
			undefined = true
		}
	}
	if !undefined {
		t.Error("no message of the seed's samples names nats.JSConsumerOfflineErr, the constant nats.go does not have")
	}
	byID := map[string]*errkb.Record{}
	for _, lr := range recs {
		byID[lr.rec.ID] = lr.rec
	}
	for _, lr := range recs {
		if !lr.curated {
			continue
		}
		cf, err := curate.ReadFields(lr.rec)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range cf.ReplacesSamplesOf {
			other, ok := byID[id]
			if !ok {
				t.Errorf("%s: replacesSamplesOf names %s, which no record has", lr.rec.Path(), id)
				continue
			}
			if len(failing[other.Path()]) == 0 {
				t.Errorf("%s: replacesSamplesOf names %s, whose samples all compile", lr.rec.Path(), other.Path())
			}
		}
	}
}

// loadedRecord is a record of the embedded dataset and the folder it came from.
type loadedRecord struct {
	rec       *errkb.Record
	curated   bool // from dataset/curated
	extracted bool // from a folder errkb extract wrote
}

// allRecords loads each top-level folder of the embedded dataset on its
// own, so that an extracted record a curated one replaces when the whole
// dataset is served is checked too.
func allRecords(t *testing.T) []loadedRecord {
	t.Helper()
	root := errkb.Embedded()
	entries, err := fs.ReadDir(root.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	var out []loadedRecord
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		sub, err := fs.Sub(root.FS, e.Name())
		if err != nil {
			t.Fatal(err)
		}
		ds, err := errkb.Load(errkb.Folder{Name: path.Join("dataset", e.Name()), FS: sub})
		if err != nil {
			t.Fatalf("dataset/%s: %v", e.Name(), err)
		}
		for _, r := range ds.Records {
			_, extracted := ds.Provenance[r.Repo]
			out = append(out, loadedRecord{rec: r, curated: e.Name() == curate.Dir, extracted: extracted})
		}
	}
	slices.SortFunc(out, func(a, b loadedRecord) int { return strings.Compare(a.rec.Location.File, b.rec.Location.File) })
	return out
}

// importTable maps the package names samples use to import paths: the
// standard library's usual ones, the client's packages, and the package of
// every record (a sample uses the name of the package that defines it).
func importTable(recs []loadedRecord) map[string]string {
	m := map[string]string{
		"nats":      "github.com/nats-io/nats.go",
		"jetstream": "github.com/nats-io/nats.go/jetstream",
		"micro":     "github.com/nats-io/nats.go/micro",
		"server":    "github.com/nats-io/nats-server/v2/server",
	}
	for n, p := range curate.StdImports {
		m[n] = p
	}
	for _, lr := range recs {
		p := lr.rec.GoPackage
		if p == "" {
			continue
		}
		if n := path.Base(p); m[n] == "" {
			m[n] = p
		}
	}
	return m
}

// ownImports is imports with r's own package under the name its samples
// use, the one its qualifiedName begins with: packages share names
// (html/template and text/template; crypto/aes and its internal twin),
// and a record's samples mean its own.
func ownImports(imports map[string]string, r *errkb.Record) map[string]string {
	name, _, ok := strings.Cut(r.QualifiedName, ".")
	if !ok || r.GoPackage == "" || imports[name] == r.GoPackage {
		return imports
	}
	m := maps.Clone(imports)
	m[name] = r.GoPackage
	return m
}

// guardFile is a record's typeGuard as a file of the package of a sample
// that calls the functions it declares (the seed's tryCatchPattern calls
// isConsumerOfflineErr, its typeGuard).
func guardFile(r *errkb.Record, code string, imports map[string]string) map[string]curate.Wrapped {
	if r.TypeGuard == "" {
		return nil
	}
	w := curate.Wrap(r.TypeGuard, imports)
	for _, name := range curate.Declared(w) {
		if strings.Contains(code, name+"(") {
			return map[string]curate.Wrapped{"typeGuard.go": w}
		}
	}
	return nil
}

// needNetwork ends a test that needs the module proxy: in CI (CI=true) it
// fails, elsewhere it skips with the reason.
func needNetwork(t *testing.T, err error) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("the module versions the dataset names cannot be had: %v", err)
	}
	t.Skip(fmt.Sprintf("skipped, the module versions the dataset names cannot be had (with CI=true this fails): %v", err))
}

// TestCheckerReportsErrors: the checker fails what the compiler fails, at
// the sample's own line, and passes what compiles.
func TestCheckerReportsErrors(t *testing.T) {
	imports := map[string]string{
		"errors": "errors", "nats": "github.com/nats-io/nats.go",
		"ldap": "github.com/nats-io/nats-server/v2/internal/ldap",
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	checker, err := curate.NewChecker(ctx, sampleModule, []string{"errors", "github.com/nats-io/nats.go"})
	if err != nil {
		needNetwork(t, err)
	}
	tests := []struct {
		name, code string
		want       string // a substring of the first message; "" for none
	}{
		{"a sentinel that exists", "errors.Is(err, nats.ErrTimeout)", ""},
		{"a function", "func f() error { return nats.ErrTimeout }", ""},
		{"a constant nats.go does not have", "errors.Is(err, nats.JSConsumerOfflineErr)", "1:21: undefined: nats.JSConsumerOfflineErr"},
		{"the line of the sample", "_ = err\nv := nats.Nope\n_ = v", "2:11: undefined: nats.Nope"},
		{"an unused variable", "func f() { x := 1 }", "declared and not used: x"},
		{"an internal package of another module", "func f() { _ = ldap.ErrX }", "use of internal package github.com/nats-io/nats-server/v2/internal/ldap not allowed"},
		{"a syntax error", "func f( {", "1:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs := checker.Check(curate.Wrap(tt.code, imports), nil)
			switch {
			case tt.want == "" && len(msgs) > 0:
				t.Errorf("does not compile: %v", msgs)
			case tt.want != "" && (len(msgs) == 0 || !strings.Contains(strings.Join(msgs, "\n"), tt.want)):
				t.Errorf("messages %q, want one with %q", msgs, tt.want)
			}
		})
	}
}
