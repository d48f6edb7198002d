//go:build linux

package store

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/kbgen"
)

// TestSpillLeavesNoPagesResident checks that spilling a batch does not
// leave its pages in the process's resident set: checking the entries
// reads every page of the batch, and at 100,000 records the pages left
// resident were the whole file, 397 MiB, at the moment the heap was at
// its fullest.
func TestSpillLeavesNoPagesResident(t *testing.T) {
	ds, err := errkb.Load(errkb.Folder{Name: "gen", FS: kbgen.FS(1000, 3)})
	if err != nil {
		t.Fatal(err)
	}
	sf, err := newSpillFile(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sf.done)
	for recs := ds.Records; len(recs) > 0; recs = recs[min(250, len(recs)):] {
		if err := sf.spill(recs[:min(250, len(recs))]); err != nil {
			t.Fatal(err)
		}
	}
	resident := mappedResident(t, sf.f.Name())
	if spilled := sumLens(sf); spilled < 1<<20 || resident > spilled/10 {
		t.Errorf("%d KB of the %d KB spilled are resident after spilling; want at most a tenth", resident>>10, spilled>>10)
	}
	// The records still read from the file.
	for _, r := range ds.Records {
		if len(r.RawJSON()) == 0 || r.Documentation == "" {
			t.Fatalf("record %s reads empty after spilling", r.ID)
		}
	}
}

// mappedResident sums the resident bytes of the process's mappings of
// the file at path (/proc/self/smaps).
func mappedResident(t *testing.T, path string) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	var (
		total int64
		ours  bool
	)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		switch {
		case len(fields) > 0 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":"):
			ours = len(fields) >= 6 && strings.HasPrefix(fields[len(fields)-1], path)
		case ours && len(fields) == 3 && fields[0] == "Rss:":
			kb, _ := strconv.ParseInt(fields[1], 10, 64)
			total += kb << 10
		}
	}
	return total
}
