package annotate

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index"
	"github.com/errkb/errkb/internal/errkbtest"
)

// benchRecords is the size of the fictional dataset the benchmark
// annotates against.
const benchRecords = 10000

var (
	benchOnce sync.Once
	benchDS   *errkb.Dataset
	benchIx   *index.Index
	benchErr  error
)

func benchIndex(b *testing.B) (*errkb.Dataset, *index.Index) {
	b.Helper()
	benchOnce.Do(func() {
		benchDS = errkbtest.Generated(b, benchRecords)
		benchIx, benchErr = index.Build(context.Background(), benchDS, slog.New(slog.DiscardHandler))
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDS, benchIx
}

var placeholder = regexp.MustCompile(`<[^>]*>|\{[^}]*\}|%[sdvq]`)

// errorLine is a log line that carries record r's message, with its
// variable parts filled in.
func errorLine(r *errkb.Record, i int) string {
	msg := placeholder.ReplaceAllStringFunc(r.ErrorMessage, func(string) string { return fmt.Sprintf("orders-%04x", i) })
	return fmt.Sprintf("2026-11-30T01:02:%02d.%03dZ ERROR worker-%d request_id=%08x %s", i%60, i%1000, i%8, i*2654435761, msg)
}

// routineLines are the shapes of the lines most of a log is made of.
var routineLines = []string{
	`2026-11-30T01:02:%02d.%03dZ INFO http: GET /api/v1/items/%d 200 %dms`,
	`2026-11-30T01:02:%02d.%03dZ INFO connected to postgres at 10.0.%d.%d:5432`,
	`2026-11-30T01:02:%02d.%03dZ DEBUG cache refreshed: %d entries in %dms`,
	`time=2026-11-30T01:02:%02d.%03dZ level=info msg="request completed" path=/health status=200 bytes=%d duration=%dms`,
	`{"time":"2026-11-30T01:02:%02d.%03dZ","level":"INFO","msg":"job finished","job":"sync-%d","took_ms":%d}`,
	`2026-11-30T01:02:%02d.%03dZ INFO worker started, pid %d, %d goroutines`,
	`2026-11-30T01:02:%02d.%03dZ INFO user session renewed for account %d after %d seconds`,
	`2026-11-30T01:02:%02d.%03dZ DEBUG scheduled next compaction of partition %d in %d minutes`,
}

// logMix is n log lines of which one in ten carries the message of a
// record of ds; the rest are routine lines with changing numbers, so no
// two lines are alike.
func logMix(ds *errkb.Dataset, n int) ([]byte, int) {
	rng := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	errs := 0
	for i := range n {
		if i%10 == 9 {
			b.WriteString(errorLine(ds.Records[rng.IntN(len(ds.Records))], i))
			errs++
		} else {
			f := routineLines[rng.IntN(len(routineLines))]
			fmt.Fprintf(&b, f, i%60, i%1000, rng.IntN(100000), rng.IntN(1000))
		}
		b.WriteByte('\n')
	}
	return b.Bytes(), errs
}

// BenchmarkAnnotate streams a log of 10,000 lines, 10% of them errors,
// through the local matcher over an index of 10,000 fictional records.
// Run it with:
//
//	go test -run XXX -bench Annotate -benchtime 3x ./annotate
//
// lines/s is the figure the README quotes ("identify" looks lines up on
// every CPU, "workers=1" on one); "lookup" is the baseline of the same
// run: every line through the full Lookup, as /lookup answers, on one CPU.
// lines/cpu-s divides by the CPU time the process used, which does not
// fall when other work shares the machine.
func BenchmarkAnnotate(b *testing.B) {
	ds, ix := benchIndex(b)
	input, _ := logMix(ds, 10000)
	for _, tc := range []struct {
		name  string
		m     Matcher
		input []byte
	}{
		{"identify", NewLocal(ix, ""), input},
		{"identify/workers=1", NewLocal(ix, ""), input},
		// The baseline: every line through the full Lookup, on the first
		// 1,000 lines, since it is slow.
		{"lookup/workers=1", NewLocal(lookupOnly{ix}, ""), firstLines(input, 1000)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			lines := bytes.Count(tc.input, []byte("\n"))
			cpu0 := cpuTime()
			for b.Loop() {
				opt := Options{MaxLineBytes: index.MaxQueryBytes}
				if strings.HasSuffix(tc.name, "workers=1") {
					opt.Workers = 1
				}
				if err := Stream(context.Background(), bytes.NewReader(tc.input), io.Discard, tc.m, opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
			if cpu := cpuTime() - cpu0; cpu > 0 {
				// Lines per second of CPU, which unlike lines/s does not
				// fall when other work shares the machine's cores.
				b.ReportMetric(float64(lines)*float64(b.N)/cpu.Seconds(), "lines/cpu-s")
			}
		})
	}
}

// lookupOnly identifies with the full Lookup, as /lookup does.
type lookupOnly struct{ ix *index.Index }

func (l lookupOnly) LookupLine(ctx context.Context, text string) (*errkb.Record, string, error) {
	res, err := l.ix.Lookup(ctx, text)
	if err != nil {
		return nil, "", err
	}
	return res.Match, res.Reason, nil
}

func firstLines(b []byte, n int) []byte {
	i := 0
	for range n {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			return b
		}
		i += j + 1
	}
	return b[:i]
}
