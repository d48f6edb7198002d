package tables

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/lex"
	"github.com/errkb/errkb/index/internal/pattern"
	"github.com/errkb/errkb/index/internal/tabfile"
	"github.com/errkb/errkb/internal/kbgen"
)

// TestTablesAnswerForEveryRecord builds the tables file of a generated
// dataset, reads it back, and checks each accessor against the record it
// was made from.
func TestTablesAnswerForEveryRecord(t *testing.T) {
	ds := generated(t, 400, 5)
	data, err := Build(ds.Records)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := Read(data, ds.Len())
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range ds.Records {
		rec := int32(i)
		if got, ok := tb.Record(r.ID); !ok || got != rec {
			t.Fatalf("record(%q) = %d, %v; want %d", r.ID, got, ok, i)
		}
		if c := lex.NormalizeCode(r.ErrorCode); c != "" && !slices.Contains(tb.ByCode(c), rec) {
			t.Errorf("byCode(%q) lacks record %s", c, r.ID)
		}
		if c := strings.ToLower(r.ErrorClass); c != "" && (!slices.Contains(tb.ByClass(c), rec) || !slices.Contains(tb.CodeKeys(c), rec)) {
			t.Errorf("byClass/codeKeys(%q) lack record %s", c, r.ID)
		}
		for _, w := range lex.MessageWords(r.ErrorMessage) {
			if !tb.MsgWords(rec).Has(w) || !tb.Words().Known(w) {
				t.Errorf("record %s: message word %q unknown", r.ID, w)
			}
		}
		if tb.MsgWords(rec).Has("zzzz-not-a-word") {
			t.Errorf("record %s: has a word it does not hold", r.ID)
		}
		if want := " " + strings.Join(lex.MessageWords(r.ErrorMessage), " ") + " "; tb.MsgSeq(rec) != want {
			t.Errorf("msgSeq(%s) = %q, want %q", r.ID, tb.MsgSeq(rec), want)
		}
		for id := range RecordIdents(r) {
			if !slices.Contains(tb.Idents(id), rec) {
				t.Errorf("idents(%q) lacks record %s", id, r.ID)
			}
		}
	}
	if _, ok := tb.Record("no-such-id"); ok {
		t.Error("record found an id no record has")
	}
	if tb.ByCode("no-such-code") != nil || tb.Idents("no-such-ident") != nil {
		t.Error("postings found a key never added")
	}
}

// TestReadTablesRefusesDamage checks that a truncated or altered file is
// refused with an error, never a panic or tables that point out of range.
func TestReadTablesRefusesDamage(t *testing.T) {
	ds := generated(t, 50, 6)
	data, err := Build(ds.Records)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Read(data, ds.Len()+1); err == nil {
		t.Error("tables accepted for a dataset of another size")
	}
	for _, n := range []int{0, 8, 20, 100, len(data) / 2, len(data) - 8} {
		if _, err := Read(aligned(data[:n]), ds.Len()); err == nil {
			t.Errorf("tables truncated to %d of %d bytes accepted", n, len(data))
		}
	}
	bad := aligned(data)
	bad[16] ^= 0xff // the format version, after the 16 bytes of magic
	if _, err := Read(bad, ds.Len()); err == nil {
		t.Error("tables of another format version accepted")
	}
}

// aligned copies b into memory aligned as a mapping is.
func aligned(b []byte) []byte {
	words := make([]float64, (len(b)+7)/8+1)
	out := tabfile.AsBytes(words)[:len(b)]
	copy(out, b)
	return out
}

// FuzzReadTables alters a valid tables file and reads it: a file on disk
// can be damaged in ways its checksum would catch, but reading must never
// panic or hand out record numbers out of range whatever it holds.
func FuzzReadTables(f *testing.F) {
	ds := relevanceDataset(f)
	data, err := Build(ds.Records)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint32(0), byte(0), uint16(0))
	f.Add(uint32(25), byte(0x40), uint16(0))
	f.Add(uint32(len(data)/3), byte(1), uint16(100))
	f.Fuzz(func(t *testing.T, at uint32, xor byte, cut uint16) {
		b := aligned(data)
		if len(b) > 0 {
			b[int(at)%len(b)] ^= xor
		}
		b = b[:len(b)-min(int(cut), len(b))]
		tb, err := Read(b, ds.Len())
		if err != nil {
			return
		}
		for i, r := range ds.Records {
			rec := int32(i)
			for _, l := range [][]int32{tb.ByCode(lex.NormalizeCode(r.ErrorCode)), tb.Idents(strings.ToLower(r.ErrorCode)), tb.SrcIdents("err")} {
				for _, x := range l {
					if x < 0 || int(x) >= ds.Len() {
						t.Fatalf("record number %d out of range", x)
					}
				}
			}
			tb.Record(r.ID)
			tb.MsgWords(rec).Has("stream")
			tb.CodeWords(rec).Has("stream")
			_ = tb.MsgSeq(rec)
			tb.Templates(lex.NormalizeText(r.MessagePattern))
			tb.Words().Known("stream")
		}
		tb.Patterns().Match([]string{"stream not found", "nats: consumer is offline"}, map[string]bool{"stream": true, "not": true, "found": true, "consumer": true, "offline": true}, false, map[int32]pattern.Hit{})
	})
}

func relevanceDataset(f *testing.F) *errkb.Dataset {
	ds, err := errkb.Load(errkb.Folder{Name: "relevance", FS: os.DirFS("../../../testdata/relevance/dataset")})
	if err != nil {
		f.Fatal(err)
	}
	return ds
}

// generated loads n records of the generator's dataset number seed.
func generated(t *testing.T, n int, seed uint64) *errkb.Dataset {
	t.Helper()
	dir := t.TempDir()
	if err := kbgen.Write(dir, n, seed); err != nil {
		t.Fatal(err)
	}
	ds, err := errkb.Load(errkb.Folder{Name: "gen", FS: os.DirFS(dir)})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}
