package persist

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
	"github.com/errkb/errkb/internal/safefile"
)

// Compact merges the bleve segments of the index in folder into one and
// records the new files in its manifest.
func Compact(ctx context.Context, folder string) error {
	m, err := ReadManifest(folder)
	if err != nil {
		return err
	}
	if err := CompactBleve(ctx, filepath.Join(folder, BleveDir)); err != nil {
		return err
	}
	if m.Files, err = sumFiles(folder); err != nil {
		return err
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return safefile.WriteBytes(filepath.Join(folder, ManifestName), data)
}

// CompactBleve merges the segments of the bleve index in bdir into one
// and waits for scorch to delete the merged-away files, so that the
// folder lists only what the index uses.
func CompactBleve(ctx context.Context, bdir string) error {
	if err := mergeSegments(ctx, bdir, true); err != nil {
		return err
	}
	// Scorch deletes merged-away segments in the background, when nothing
	// uses them any more; reopening gives it a fresh chance, with no
	// merge holding them, until one segment is left.
	for range 5 {
		if zaps, _ := filepath.Glob(filepath.Join(bdir, "store", "*.zap")); len(zaps) <= 1 {
			break
		}
		if err := mergeSegments(ctx, bdir, false); err != nil {
			return err
		}
	}
	return nil
}

// oneSegment is scorch's single-segment merge plan with every segment in
// one merge task: with its default of 10 per task, a forced merge of the
// 29 segments a 100,000-record build leaves stopped at two.
var oneSegment = func() *mergeplan.MergePlanOptions {
	o := mergeplan.SingleSegmentMergePlanOptions
	o.SegmentsPerMergeTask = math.MaxInt32
	return &o
}()

// mergeSegments opens the bleve index in bdir, merges its segments into
// one when merge is set, waits up to a second for scorch to delete the
// files no snapshot needs, and closes it.
func mergeSegments(ctx context.Context, bdir string, merge bool) error {
	// Keeping one snapshot lets scorch delete the merged-away segments.
	bi, err := bleve.OpenUsing(bdir, map[string]any{"numSnapshotsToKeep": 1})
	if err != nil {
		return fmt.Errorf("open index: %w", err)
	}
	if merge {
		adv, err := bi.Advanced()
		if err != nil {
			bi.Close()
			return err
		}
		s, ok := adv.(*scorch.Scorch)
		if !ok {
			bi.Close()
			return fmt.Errorf("index is a %T, not scorch", adv)
		}
		if err := s.ForceMerge(ctx, oneSegment); err != nil {
			bi.Close()
			return fmt.Errorf("merge segments: %w", err)
		}
	}
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if zaps, _ := filepath.Glob(filepath.Join(bdir, "store", "*.zap")); len(zaps) <= 1 {
			break
		}
	}
	if err := bi.Close(); err != nil {
		return fmt.Errorf("close index: %w", err)
	}
	return nil
}
