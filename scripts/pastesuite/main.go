// Command pastesuite writes the paste suites (testdata/pastesuites): for
// each project, the records errkb extract made from it, in a compact form
// (see compact.go), and labelled queries in the forms engineers paste
// them: the message with values filled in, a gRPC status, a wrapped
// connect or I/O error, a JSON log line, a klog line, a panic with its
// goroutine trace, the name the code uses, a fragment and a typo. The
// embedded NATS dataset is a project too, read in place. scripts/pastesuites.sh
// runs the extraction and then this command.
//
// Records are split by a hash of their id into a tuning half and a
// held-out half, and a query belongs to its record's half. A query is
// labelled a lookup (a confident answer is expected) only when the text it
// holds names this record and no other of any project in the suites, so
// the labels hold for every project alone and for all loaded together.
// The command is deterministic: the same records and seed give the same
// queries.
package main

import (
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/errkb/errkb"
)

// query is one labelled query of a suite.
type query struct {
	Kind   string `json:"kind"`
	Half   string `json:"half"`
	Q      string `json:"q"`
	Want   string `json:"want"`
	Lookup bool   `json:"lookup"`
}

// project is one suite: its name, and the records it holds.
type project struct {
	name string
	recs []*errkb.Record
}

func main() {
	out := flag.String("out", "testdata/pastesuites", "folder of the suites")
	seed := flag.Uint64("seed", 23, "random seed")
	embedded := flag.String("embedded", "nats", "name of the project read from the embedded dataset")
	skip := flag.String("skip", "extracted/golang", "folder of the embedded dataset left out of its project (the standard library, a project of its own)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: pastesuite [-out DIR] [-seed N] [-embedded NAME] [-skip DIR] NAME=EXTRACTED_DIR...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if err := run(*out, *seed, *embedded, *skip, flag.Args()); err != nil {
		log.Fatal(err)
	}
}

func run(out string, seed uint64, embedded, skip string, args []string) error {
	var projects []project
	for _, a := range args {
		name, dir, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("argument %q: want NAME=DIR", a)
		}
		dst := filepath.Join(out, name, "dataset")
		if err := os.RemoveAll(dst); err != nil {
			return err
		}
		if err := compact(dir, dst); err != nil {
			return err
		}
		recs, err := load(errkb.Folder{Name: name, FS: os.DirFS(dst)})
		if err != nil {
			return err
		}
		projects = append(projects, project{name, recs})
	}
	if embedded != "" {
		e := errkb.Embedded()
		if skip != "" {
			e.FS = withoutDir{e.FS, skip}
		}
		recs, err := load(e)
		if err != nil {
			return err
		}
		projects = append(projects, project{embedded, recs})
	}
	var all []*errkb.Record
	for _, p := range projects {
		all = append(all, p.recs...)
	}
	g := newGen(all)
	for i, p := range projects {
		g.rng = rand.New(rand.NewPCG(seed, uint64(i)))
		var qs []query
		for _, r := range p.recs {
			qs = append(qs, g.queries(r)...)
		}
		if err := writeJSON(filepath.Join(out, p.name, "queries.json"), qs); err != nil {
			return err
		}
		count := map[string]int{}
		for _, q := range qs {
			count[q.Half+" "+q.Kind]++
		}
		fmt.Println(p.name, len(p.recs), "records,", len(qs), "queries", count)
	}
	return nil
}

// load reads a dataset folder as errkb does, curated records merged with
// extracted ones, in id order.
func load(f errkb.Folder) ([]*errkb.Record, error) {
	ds, err := errkb.Load(f)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", f.Name, err)
	}
	recs := append([]*errkb.Record(nil), ds.Records...)
	sort.Slice(recs, func(i, j int) bool { return recs[i].ID < recs[j].ID })
	return recs, nil
}
