package kbgen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/errkb/errkb"
)

// sampleSize is the record count the property tests sweep.
const sampleSize = 5000

// encode renders record i of g exactly as the writer does.
func encode(t testing.TB, g *Generator, i int) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	env := g.Envelope(i)
	if err := enc.Encode(&env); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// sample generates the first sampleSize records of seed 1 once per test.
func sample(t *testing.T) []errkb.Record {
	t.Helper()
	g := NewGenerator(1)
	recs := make([]errkb.Record, sampleSize)
	for i := range recs {
		recs[i] = g.Record(i)
	}
	return recs
}

func TestDeterminism(t *testing.T) {
	for _, seed := range []uint64{0, 1, 42, 1 << 63} {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			a, b, other := NewGenerator(seed), NewGenerator(seed), NewGenerator(seed+1)
			for i := 0; i < 500; i++ {
				ea, eb := encode(t, a, i), encode(t, b, i)
				if !bytes.Equal(ea, eb) {
					t.Fatalf("record %d differs between two generators with seed %d", i, seed)
				}
				if bytes.Equal(ea, encode(t, other, i)) {
					t.Fatalf("record %d identical for seeds %d and %d", i, seed, seed+1)
				}
			}
		})
	}
}

func TestRunIsReproducible(t *testing.T) {
	for _, tc := range []struct{ name, format string }{{"jsonl", "jsonl"}, {"json", "json"}} {
		t.Run(tc.name, func(t *testing.T) {
			dirs := [2]string{filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")}
			for _, d := range dirs {
				args := []string{"-n", "700", "-out", d, "-seed", "9", "-per-file", "300", "-format", tc.format}
				if code := run(args, io.Discard); code != 0 {
					t.Fatalf("run %v = %d", args, code)
				}
			}
			a, b := readTree(t, dirs[0]), readTree(t, dirs[1])
			if len(a) == 0 || len(a) != len(b) {
				t.Fatalf("file counts %d and %d", len(a), len(b))
			}
			for name, data := range a {
				if !bytes.Equal(data, b[name]) {
					t.Errorf("%s differs between runs", name)
				}
			}
		})
	}
}

// readTree returns every regular file under dir keyed by relative path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[rel] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestUniqueness(t *testing.T) {
	recs := sample(t)
	idRE := regexp.MustCompile(`^[0-9a-f]{16}$`)
	ids, slugs, codes := map[string]bool{}, map[string]bool{}, map[string]int{}
	for _, r := range recs {
		if !idRE.MatchString(r.ID) {
			t.Errorf("bad id %q", r.ID)
		}
		if ids[r.ID] {
			t.Errorf("duplicate id %s", r.ID)
		}
		ids[r.ID] = true
		key := r.Repo + "#" + r.Slug
		if slugs[key] {
			t.Errorf("duplicate repo+slug %s", key)
		}
		slugs[key] = true
		codes[r.Repo+"#"+r.ErrorCode]++
	}
	shared := 0
	for code, n := range codes {
		if n > 2 {
			t.Errorf("code %s used by %d records, want at most 2", code, n)
		}
		if n == 2 {
			shared++
		}
	}
	if shared == 0 || shared > sampleSize/20 {
		t.Errorf("%d shared codes in %d records, want a few", shared, sampleSize)
	}
}

func TestLineNumbers(t *testing.T) {
	for _, r := range sample(t) {
		lines := strings.Split(r.SourceCode, "\n")
		switch {
		case r.SourceCodeStart < 1 || r.SourceCodeStart > r.LineNumber || r.LineNumber > r.SourceCodeEnd:
			t.Errorf("%s: want 1 <= start %d <= line %d <= end %d", r.ID, r.SourceCodeStart, r.LineNumber, r.SourceCodeEnd)
		case len(lines) != r.SourceCodeEnd-r.SourceCodeStart+1:
			t.Errorf("%s: %d snippet lines for range %d-%d", r.ID, len(lines), r.SourceCodeStart, r.SourceCodeEnd)
		case len(lines) < 20 || len(lines) > 40:
			t.Errorf("%s: snippet has %d lines, want about 30", r.ID, len(lines))
		case !strings.Contains(lines[r.LineNumber-r.SourceCodeStart], r.ErrorClass):
			t.Errorf("%s: line %d does not raise %s: %q", r.ID, r.LineNumber, r.ErrorClass, lines[r.LineNumber-r.SourceCodeStart])
		}
	}
}

func TestGithubURL(t *testing.T) {
	urlRE := regexp.MustCompile(`^https://github\.com/([a-z]+/[a-z]+)/blob/([0-9a-f]{40})/(\S+)#L(\d+)-L(\d+)$`)
	ext := map[string]*regexp.Regexp{
		".go": regexp.MustCompile(`(?m)^\t`), ".py": regexp.MustCompile(`(?m)^    `),
		".ts": regexp.MustCompile(`(?m)^  `), ".rs": regexp.MustCompile(`(?m)^    `),
	}
	for _, r := range sample(t) {
		m := urlRE.FindStringSubmatch(r.GithubURL)
		if m == nil {
			t.Fatalf("%s: malformed githubUrl %q", r.ID, r.GithubURL)
		}
		want := []string{r.Repo, r.AnalyzedSha, r.FilePath, strconv.Itoa(r.SourceCodeStart), strconv.Itoa(r.SourceCodeEnd)}
		if !slices.Equal(m[1:], want) {
			t.Errorf("%s: githubUrl parts %q, want %q", r.ID, m[1:], want)
		}
		if re := ext[filepath.Ext(r.FilePath)]; re == nil || !re.MatchString(r.SourceCode) {
			t.Errorf("%s: snippet style does not match %s", r.ID, r.FilePath)
		}
	}
}

func TestRecordSize(t *testing.T) {
	g := NewGenerator(1)
	for i := 0; i < sampleSize; i++ {
		if n := len(encode(t, g, i)); n < 3000 || n > 6000 {
			t.Errorf("record %d encodes to %d bytes, want 3-6 KB", i, n)
		}
	}
}

func TestRecordContent(t *testing.T) {
	vocab := map[string]bool{}
	for _, tag := range NewGenerator(1).tags {
		vocab[tag] = true
	}
	if len(vocab) < 180 || len(vocab) > 240 {
		t.Errorf("tag vocabulary has %d tags, want about 200", len(vocab))
	}
	repoRE := regexp.MustCompile(`^(` + strings.Join(ownerHeads, "|") + `)(` + strings.Join(ownerTails, "|") +
		`)/(` + strings.Join(repoHeads, "|") + `)(` + strings.Join(repoTails, "|") + `)$`)
	classRE := regexp.MustCompile(`^[A-Z][a-zA-Z]+Error$`)
	severities := []string{"error", "warning", "fatal", "info"}
	for _, r := range sample(t) {
		if !repoRE.MatchString(r.Repo) {
			t.Errorf("%s: repo %q is not built from the fictional word lists", r.ID, r.Repo)
		}
		if !classRE.MatchString(r.ErrorClass) || !slices.Contains(severities, r.Severity) {
			t.Errorf("%s: class %q severity %q", r.ID, r.ErrorClass, r.Severity)
		}
		if len(r.Solutions) < 3 || len(r.Solutions) > 5 || len(r.PreventionTips) < 3 || len(r.PreventionTips) > 5 {
			t.Errorf("%s: %d solutions, %d tips", r.ID, len(r.Solutions), len(r.PreventionTips))
		}
		if len(r.Tags) < 3 || len(r.Tags) > 6 {
			t.Errorf("%s: %d tags", r.ID, len(r.Tags))
		}
		for _, tag := range r.Tags {
			if !vocab[tag] {
				t.Errorf("%s: tag %q not in vocabulary", r.ID, tag)
			}
		}
		if strings.HasPrefix(r.MessagePattern, "^") {
			if _, err := regexp.Compile(r.MessagePattern); err != nil {
				t.Errorf("%s: pattern %q: %v", r.ID, r.MessagePattern, err)
			}
		}
		if strings.ContainsAny(r.ErrorMessage, "%{}") {
			t.Errorf("%s: errorMessage %q still has raw placeholders", r.ID, r.ErrorMessage)
		}
	}
}

// seedKeys is the key order of the seed record the output must follow.
var seedKeys = []string{"id", "repo", "slug", "errorCode", "errorMessage", "messagePattern", "errorType",
	"errorClass", "httpStatus", "severity", "filePath", "lineNumber", "sourceCode", "sourceCodeStart",
	"sourceCodeEnd", "githubUrl", "documentation", "triggerScenarios", "commonSituations", "solutions",
	"exampleFix", "handlingStrategy", "validationCode", "typeGuard", "tryCatchPattern", "preventionTips",
	"tags", "backgroundTag", "analyzedSha", "analyzedAt", "contentChangedAt", "schemaVersion",
	"numericCode", "callSites", "wraps", "wrappedBy", "goPackage"}

func TestRunOutputParses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	var stderr bytes.Buffer
	if code := run([]string{"-n", "25000", "-out", dir, "-seed", "7", "-per-file", "10000"}, &stderr); code != 0 {
		t.Fatalf("run = %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "kbgen: 20000/25000 records") {
		t.Errorf("no progress on stderr: %q", stderr.String())
	}
	for part, want := range []int{10000, 10000, 5000} {
		f, err := os.Open(filepath.Join(dir, fmt.Sprintf("part-%05d.jsonl", part)))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		n := 0
		for ; sc.Scan(); n++ {
			dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
			dec.DisallowUnknownFields()
			var env Envelope
			if err := dec.Decode(&env); err != nil {
				t.Fatalf("part %d line %d: %v", part, n+1, err)
			}
			if env.DatasetVersion != "kbgen-seed-7" || env.Record.ID == "" || env.Record.SchemaVersion != 2 {
				t.Fatalf("part %d line %d: unexpected envelope %+v", part, n+1, env.DatasetVersion)
			}
			if part == 0 && n == 0 {
				checkKeyOrder(t, sc.Bytes())
			}
		}
		f.Close()
		if err := sc.Err(); err != nil || n != want {
			t.Errorf("part %d: %d lines (err %v), want %d", part, n, err, want)
		}
	}
}

// checkKeyOrder verifies the record keys appear in seed order.
func checkKeyOrder(t *testing.T, line []byte) {
	t.Helper()
	var env struct{ Record json.RawMessage }
	if err := json.Unmarshal(line, &env); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(env.Record))
	var keys []string
	dec.Token() // opening brace
	for dec.More() {
		tok, _ := dec.Token()
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(keys, seedKeys) {
		t.Errorf("key order %v, want %v", keys, seedKeys)
	}
}

func TestFormatJSON(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if code := run([]string{"-n", "60", "-out", dir, "-format", "json"}, io.Discard); code != 0 {
		t.Fatalf("run = %d", code)
	}
	files := readTree(t, dir)
	if len(files) != 60 {
		t.Fatalf("%d files, want 60", len(files))
	}
	for name, data := range files {
		var env Envelope
		if err := json.Unmarshal(data, &env); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := filepath.Join(filepath.FromSlash(env.Record.Repo), env.Record.Slug+".json"); name != want {
			t.Errorf("record stored at %s, want %s", name, want)
		}
	}
}

func TestBadFlags(t *testing.T) {
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "keep.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(full, "keep.txt")
	fresh := func() string { return filepath.Join(t.TempDir(), "out") }
	for _, tc := range []struct {
		name string
		args []string
		want int
		msg  string
	}{
		{"missing n", []string{"-out", fresh()}, 2, "-n must be >= 1"},
		{"zero n", []string{"-n", "0", "-out", fresh()}, 2, "-n must be >= 1"},
		{"negative n", []string{"-n", "-5", "-out", fresh()}, 2, "-n must be >= 1"},
		{"missing out", []string{"-n", "5"}, 2, "-out is required"},
		{"zero per-file", []string{"-n", "5", "-out", fresh(), "-per-file", "0"}, 2, "-per-file must be >= 1"},
		{"bad format", []string{"-n", "5", "-out", fresh(), "-format", "xml"}, 2, "-format must be jsonl or json"},
		{"extra arg", []string{"-n", "5", "-out", fresh(), "extra"}, 2, "unexpected argument"},
		{"unknown flag", []string{"-n", "5", "-out", fresh(), "-bogus"}, 2, "flag provided but not defined"},
		{"non-empty out", []string{"-n", "5", "-out", full}, 2, "not empty"},
		{"out is a file", []string{"-n", "5", "-out", file}, 2, "not a directory"},
		{"non-empty out with force", []string{"-n", "5", "-out", full, "-force"}, 0, "wrote 5 records"},
		{"help", []string{"-h"}, 0, "usage: kbgen"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			if got := run(tc.args, &stderr); got != tc.want || !strings.Contains(stderr.String(), tc.msg) {
				t.Errorf("run(%q) = %d, stderr %q; want %d and %q", tc.args, got, stderr.String(), tc.want, tc.msg)
			}
		})
	}
}

func BenchmarkRecord(b *testing.B) {
	g := NewGenerator(1)
	for i := 0; b.Loop(); i++ {
		encode(b, g, i)
	}
}
