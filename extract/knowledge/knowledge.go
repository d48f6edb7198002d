// Package knowledge derives what the code says about each extracted
// error, beyond where it is made: when it happens (the guards around each
// place it is made), which exported functions pass it to a caller (with
// the shortest call chain), where the module's own code checks for it,
// which of the module's tests provoke and assert it, and which doc
// comments speak of it. It fills the records' Conditions, ReturnedBy,
// HandledAt, Tests and Docs.
//
// It reads a module loaded with its tests (extract/program, Tests set):
// the tests are read for this analysis only, never extracted as errors.
// Flow questions go through the program's SSA form and VTA call graph;
// everything else is read from the type-checked syntax. Every fact
// carries the file, line and link of the code that states it, and a fact
// the analysis cannot establish is left out.
//
// The files, in the order a record is filled:
//
//	index.go      the loaded module as the passes read it: files, functions, names
//	sites.go      each place an error is made, found again in the loaded syntax
//	conditions.go the guards around each place
//	settings.go   configuration fields the guards read, and the keys that set them
//	returned.go   the exported functions the error flows out of, through SSA
//	unseen.go     calls the call graph cannot see: options and unexported methods the caller supplies
//	feasible.go   places a call's constant arguments rule out
//	requires.go   guards on parameters, carried up each chain
//	handled.go    the module's own checks for the error
//	asserted.go   the module's tests that assert the error
//	docs.go       doc comments that speak of the error
package knowledge

import (
	"fmt"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract"
	"github.com/errkb/errkb/extract/program"
)

// Caps on the lists a record carries: the shortest or first facts are
// kept, and Stats counts what was cut.
const (
	MaxEntries    = 20 // returnedBy: the entries with the shortest chains
	MaxChecks     = 20 // handledAt
	MaxTests      = 20 // tests
	MaxDocs       = 10 // docs
	MaxConditions = 30 // conditions: one per place made
	MaxCheckLines = 12 // lines of a handling block quoted
)

// Options add what a project's own formats know about its errors.
type Options struct {
	// Docs are documents of an error by its extract key (errors.json's
	// description, comment and help for a JetStream API error).
	Docs map[string][]errkb.Doc
	// Names are other package-level functions or constants, by key
	// ("import/path.Name"), that stand for an error (by its extract key):
	// a generated constructor of an API error.
	Names map[string][]string
}

// Stats counts what Fill wrote.
type Stats struct {
	Records, Conditions, ReturnedBy, HandledAt, Tests, Docs int
	Returned                                                int // records with a place whose value its function returns
	Cut                                                     int // facts left out by the caps
}

// Fill derives the knowledge fields of recs, whose errors are errs, from
// prog, the same module loaded with its tests. A record is matched to its
// error by id (extract.RecordID).
func Fill(prog *program.Program, errs []extract.Error, recs []errkb.Record, o Options) (Stats, error) {
	if len(prog.Packages) == 0 {
		return Stats{}, fmt.Errorf("knowledge: no packages loaded")
	}
	byID := make(map[string]*extract.Error, len(errs))
	for i := range errs {
		byID[extract.RecordID(prog.Origin.Repo, errs[i].Key())] = &errs[i]
	}
	ix := newIndex(prog, errs, o)
	var st Stats
	for i := range recs {
		e := byID[recs[i].ID]
		if e == nil {
			continue
		}
		st.Records++
		ix.fill(e, &recs[i], &st)
	}
	return st, nil
}

// fill derives one record's fields.
func (ix *index) fill(e *extract.Error, r *errkb.Record, st *Stats) {
	places := ix.places(e)
	r.Conditions = capList(ix.conditions(places), MaxConditions, st)
	entries, returned := ix.returnedBy(places, e)
	r.ReturnedBy = capList(entries, MaxEntries, st)
	r.HandledAt = capList(ix.handledAt(e), MaxChecks, st)
	r.Tests = capList(ix.asserted(e), MaxTests, st)
	r.Docs = capList(ix.docs(e, places, entries), MaxDocs, st)
	for _, n := range []struct {
		has bool
		to  *int
	}{{len(r.Conditions) > 0, &st.Conditions}, {len(r.ReturnedBy) > 0, &st.ReturnedBy}, {len(r.HandledAt) > 0, &st.HandledAt},
		{len(r.Tests) > 0, &st.Tests}, {len(r.Docs) > 0, &st.Docs}, {returned, &st.Returned}} {
		if n.has {
			*n.to++
		}
	}
}

// capList keeps the first n of list, counting the rest as cut.
func capList[T any](list []T, n int, st *Stats) []T {
	if len(list) > n {
		st.Cut += len(list) - n
		return list[:n]
	}
	return list
}
