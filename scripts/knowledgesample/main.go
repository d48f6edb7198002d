// Command knowledgesample draws a random sample of the facts
// extract/knowledge derived (one condition, entry, check, test or doc of
// a record each), with a fixed seed so the sample can be checked by hand
// and drawn again. With -src, it prints the source lines each fact cites,
// from the module's folder (the module cache), for the check.
//
//	go run ./scripts/knowledgesample -n 30 -seed 21 \
//	  -src nats-io/nats-server=$(go env GOMODCACHE)/github.com/nats-io/nats-server/v2@v2.15.3 \
//	  -src nats-io/nats.go=$(go env GOMODCACHE)/github.com/nats-io/nats.go@v1.55.0 \
//	  /tmp/knowledge-out
package main

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/errkb/errkb"
)

// fact is one derived statement, with the places it cites.
type fact struct {
	record, kind, text string
	cites              []errkb.Place
}

type srcFlag map[string]string

func (s srcFlag) String() string { return "" }
func (s srcFlag) Set(v string) error {
	repo, dir, ok := strings.Cut(v, "=")
	if !ok {
		return fmt.Errorf("want REPO=DIR, got %q", v)
	}
	s[repo] = dir
	return nil
}

func main() {
	n := flag.Int("n", 30, "facts to draw")
	seed := flag.Uint64("seed", 21, "seed of the draw")
	src := srcFlag{}
	flag.Var(src, "src", "REPO=DIR: the module's folder, to print the lines cited (repeatable)")
	flag.Parse()
	var all []fact
	for _, dir := range flag.Args() {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") || strings.HasPrefix(d.Name(), "_") {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			var env struct {
				Record *errkb.Record `json:"record"`
			}
			if json.Unmarshal(data, &env) == nil && env.Record != nil {
				all = append(all, facts(env.Record)...)
			}
			return nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "knowledgesample:", err)
			os.Exit(1)
		}
	}
	// The draw orders facts by a hash of the seed and the fact itself, so
	// a fact added or removed elsewhere leaves the rest of the sample as
	// it was.
	key := func(f fact) uint64 {
		h := fnv.New64a()
		fmt.Fprintf(h, "%d\x00%s\x00%s\x00%s", *seed, f.record, f.kind, f.text)
		return h.Sum64()
	}
	slices.SortFunc(all, func(a, b fact) int { return cmp.Compare(key(a), key(b)) })
	fmt.Printf("%d facts; sample of %d, seed %d\n\n", len(all), min(*n, len(all)), *seed)
	for i, f := range all[:min(*n, len(all))] {
		fmt.Printf("%d. [%s] %s: %s\n", i+1, f.kind, f.record, f.text)
		for _, c := range f.cites {
			fmt.Printf("   %s\n", c.GithubURL)
			if dir := src[repoOf(f.record)]; dir != "" {
				printLines(filepath.Join(dir, c.FilePath), c.LineNumber)
			}
		}
	}
}

func repoOf(record string) string { r, _, _ := strings.Cut(record, " "); return r }

// facts lists a record's derived facts.
func facts(r *errkb.Record) []fact {
	name := r.Repo + " " + r.Slug
	var out []fact
	for _, c := range r.Conditions {
		var gs []string
		cites := []errkb.Place{{FilePath: c.FilePath, LineNumber: c.LineNumber, GithubURL: c.GithubURL}}
		for _, g := range c.Guards {
			gs = append(gs, g.Kind+" "+g.Expr)
			cites = append(cites, errkb.Place{FilePath: g.FilePath, LineNumber: g.LineNumber, GithubURL: g.GithubURL})
		}
		for _, s := range c.Settings {
			gs = append(gs, "setting "+s.Field+" key "+s.ConfigKey)
			if s.ConfigAt != nil {
				cites = append(cites, *s.ConfigAt)
			}
		}
		text := "made in " + c.Function + " when " + strings.Join(gs, "; ")
		if c.Unconditional {
			text = "made unconditionally in " + c.Function
		}
		out = append(out, fact{name, "condition", text, cites})
	}
	for _, e := range r.ReturnedBy {
		var chain []string
		var cites []errkb.Place
		for _, s := range e.Chain {
			chain = append(chain, s.Function)
			cites = append(cites, errkb.Place{FilePath: s.FilePath, LineNumber: s.LineNumber, GithubURL: s.GithubURL})
		}
		out = append(out, fact{name, "returnedBy", e.Function + " via " + strings.Join(chain, " -> "), cites})
	}
	for _, h := range r.HandledAt {
		out = append(out, fact{name, "handledAt", h.Function + ": " + h.Check, []errkb.Place{{FilePath: h.FilePath, LineNumber: h.LineNumber, GithubURL: h.GithubURL}}})
	}
	for _, t := range r.Tests {
		out = append(out, fact{name, "test", t.Name + ": " + t.Assertion, []errkb.Place{{FilePath: t.FilePath, LineNumber: t.LineNumber, GithubURL: t.GithubURL}}})
	}
	for _, d := range r.Docs {
		text := d.Text
		if len(text) > 80 {
			text = text[:80] + "…"
		}
		out = append(out, fact{name, "doc", d.Of + ": " + strings.ReplaceAll(text, "\n", " "), []errkb.Place{{FilePath: d.FilePath, LineNumber: d.LineNumber, GithubURL: d.GithubURL}}})
	}
	return out
}

// printLines prints line of file with one line either side.
func printLines(file string, line int) {
	data, err := os.ReadFile(file)
	if err != nil {
		fmt.Printf("     (%v)\n", err)
		return
	}
	lines := strings.Split(string(data), "\n")
	for i := max(1, line-1); i <= min(len(lines), line+1); i++ {
		mark := " "
		if i == line {
			mark = ">"
		}
		fmt.Printf("     %s%5d %s\n", mark, i, lines[i-1])
	}
}
