// Package curate owns the rules of curated records: the hand-written
// explanations of an error (causes, fixes, handling code) that sit beside
// the facts the extractor reads from code. A curated record cites a source
// for every claim (a line of code at a pinned version, a page of the
// project's documentation, or a maintainer's answer in a public thread),
// says which versions it was written for, and is written against the
// message and location of the extracted record it explains, so that a
// change of either at a new version shows it is stale.
//
// The checks run in this package's tests over the embedded dataset; the
// functions here are the rules they apply, kept apart from the test
// harness so that a validator or a page can apply them too.
package curate

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/errkb/errkb"
)

// Dir is the folder of the dataset that holds curated records, one file per
// record at Dir/OWNER/NAME/SLUG.json, with the repo and slug of the
// extracted record it explains.
const Dir = "curated"

// Source is one entry of a curated record's "sources": the address a claim
// links to and what it shows.
type Source struct {
	URL  string `json:"url"`
	Note string `json:"note"`
}

// Fields are the fields a curated record adds to the record format.
type Fields struct {
	// Sources lists every URL the record's prose links to.
	Sources []Source `json:"sources"`
	// WrittenFor maps each repo whose code the record cites ("nats-io/nats.go")
	// to the version it was written for ("v1.55.0"). The record's own
	// repo is always there: its errorMessage, filePath and lineNumber are
	// the ones of that version, and its code links point at these versions.
	WrittenFor map[string]string `json:"writtenFor"`
	// ReplacesSamplesOf lists the ids of records whose code samples do not
	// compile and whose page shows this record's samples beside them
	// (the seed, served as received).
	ReplacesSamplesOf []string `json:"replacesSamplesOf"`
}

// ReadFields decodes the curated fields of r from the record as it was
// written.
func ReadFields(r *errkb.Record) (Fields, error) {
	var f Fields
	if err := json.Unmarshal(r.RawJSON(), &f); err != nil {
		return f, fmt.Errorf("record %s: %w", r.Path(), err)
	}
	return f, nil
}

// Strategies are the values handlingStrategy may take, each a short name
// for what the solutions ask a program to do (docs/curating.md says which
// to choose).
var Strategies = []string{
	"retry",          // transient: try again after a pause
	"reconnect",      // the connection is gone or going: let the client reconnect, or make a new one
	"configuration",  // a server, account or client setting must change
	"validation",     // check the input or the state before the call
	"recreate",       // the resource is missing: create it, or look it up again
	"conflict",       // an optimistic-concurrency check failed: read the current state, then decide
	"backpressure",   // the program sends or receives faster than the other side can take
	"upgrade",        // a client or server version does not support what is asked
	"restore-quorum", // the cluster cannot serve the asset until enough servers are back
}

// ValidStrategy reports whether s is one of Strategies.
func ValidStrategy(s string) bool { return slices.Contains(Strategies, s) }
