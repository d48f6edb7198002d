package main

import (
	"context"
	"fmt"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract"
	"github.com/errkb/errkb/extract/knowledge"
	"github.com/errkb/errkb/extract/natserrors"
)

// fillKnowledge loads the source again with its tests and derives the
// records' conditions, returnedBy, handledAt, tests and docs
// (extract/knowledge). The tests are read for this only: the records
// were made without them.
func fillKnowledge(ctx context.Context, s extract.Source, f extractFlags, table *natserrors.Table, errs []extract.Error, recs []errkb.Record, say func(string)) error {
	say("loading the module with its tests, for conditions, callers, checks and tests")
	prog, err := extract.Load(ctx, s, extract.LoadOptions{Tags: f.tags, Tests: true, Progress: say})
	if err != nil {
		return fmt.Errorf("load with tests: %w", err)
	}
	var o knowledge.Options
	if table != nil {
		if o.Docs, err = table.Docs(s.Dir, s.Origin); err != nil {
			return fmt.Errorf("errors.json: %w", err)
		}
		o.Names = table.Names()
	}
	st, err := knowledge.Fill(prog, errs, recs, o)
	if err != nil {
		return err
	}
	say(fmt.Sprintf("knowledge of %d records: conditions %d, returnedBy %d (of %d whose value a function returns), handledAt %d, tests %d, docs %d; %d facts over the caps",
		st.Records, st.Conditions, st.ReturnedBy, st.Returned, st.HandledAt, st.Tests, st.Docs, st.Cut))
	return nil
}
