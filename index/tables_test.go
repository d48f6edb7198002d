package index

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/errkb/errkb"
)

// TestTablesAnswerForEveryRecord builds the tables file of a generated
// dataset, reads it back, and checks each accessor against the record it
// was made from.
func TestTablesAnswerForEveryRecord(t *testing.T) {
	ds := genDataset(t, 400, 5)
	data, err := buildTables(ds.Records)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := readTables(data, ds.Len())
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range ds.Records {
		rec := int32(i)
		if got, ok := tb.record(r.ID); !ok || got != rec {
			t.Fatalf("record(%q) = %d, %v; want %d", r.ID, got, ok, i)
		}
		if c := NormalizeCode(r.ErrorCode); c != "" && !slices.Contains(tb.byCode(c), rec) {
			t.Errorf("byCode(%q) lacks record %s", c, r.ID)
		}
		if c := strings.ToLower(r.ErrorClass); c != "" && (!slices.Contains(tb.byClass(c), rec) || !slices.Contains(tb.codeKeys(c), rec)) {
			t.Errorf("byClass/codeKeys(%q) lack record %s", c, r.ID)
		}
		for _, w := range messageWords(r.ErrorMessage) {
			if !tb.msgWords(rec).has(w) || !tb.words.known(w) {
				t.Errorf("record %s: message word %q unknown", r.ID, w)
			}
		}
		if tb.msgWords(rec).has("zzzz-not-a-word") {
			t.Errorf("record %s: has a word it does not hold", r.ID)
		}
		if want := " " + strings.Join(messageWords(r.ErrorMessage), " ") + " "; tb.msgSeq(rec) != want {
			t.Errorf("msgSeq(%s) = %q, want %q", r.ID, tb.msgSeq(rec), want)
		}
		for id := range recordIdents(r) {
			if !slices.Contains(tb.idents(id), rec) {
				t.Errorf("idents(%q) lacks record %s", id, r.ID)
			}
		}
	}
	if _, ok := tb.record("no-such-id"); ok {
		t.Error("record found an id no record has")
	}
	if tb.byCode("no-such-code") != nil || tb.idents("no-such-ident") != nil {
		t.Error("postings found a key never added")
	}
}

// TestReadTablesRefusesDamage checks that a truncated or altered file is
// refused with an error, never a panic or tables that point out of range.
func TestReadTablesRefusesDamage(t *testing.T) {
	ds := genDataset(t, 50, 6)
	data, err := buildTables(ds.Records)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := readTables(data, ds.Len()+1); err == nil {
		t.Error("tables accepted for a dataset of another size")
	}
	for _, n := range []int{0, 8, len(tablesMagic) + 4, 100, len(data) / 2, len(data) - 8} {
		if _, err := readTables(aligned(data[:n]), ds.Len()); err == nil {
			t.Errorf("tables truncated to %d of %d bytes accepted", n, len(data))
		}
	}
	bad := aligned(data)
	bad[len(tablesMagic)] ^= 0xff // the format version
	if _, err := readTables(bad, ds.Len()); err == nil {
		t.Error("tables of another format version accepted")
	}
}

// aligned copies b into memory aligned as a mapping is.
func aligned(b []byte) []byte {
	words := make([]float64, (len(b)+7)/8+1)
	out := sliceBytes(words)[:len(b)]
	copy(out, b)
	return out
}

// FuzzReadTables alters a valid tables file and reads it: a file on disk
// can be damaged in ways its checksum would catch, but reading must never
// panic or hand out record numbers out of range whatever it holds.
func FuzzReadTables(f *testing.F) {
	ds := relevanceDataset(f)
	data, err := buildTables(ds.Records)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint32(0), byte(0), uint16(0))
	f.Add(uint32(len(tablesMagic)+9), byte(0x40), uint16(0))
	f.Add(uint32(len(data)/3), byte(1), uint16(100))
	f.Fuzz(func(t *testing.T, at uint32, xor byte, cut uint16) {
		b := aligned(data)
		if len(b) > 0 {
			b[int(at)%len(b)] ^= xor
		}
		b = b[:len(b)-min(int(cut), len(b))]
		tb, err := readTables(b, ds.Len())
		if err != nil {
			return
		}
		for i, r := range ds.Records {
			rec := int32(i)
			for _, l := range [][]int32{tb.byCode(NormalizeCode(r.ErrorCode)), tb.idents(strings.ToLower(r.ErrorCode)), tb.srcIdents("err")} {
				for _, x := range l {
					if x < 0 || int(x) >= ds.Len() {
						t.Fatalf("record number %d out of range", x)
					}
				}
			}
			tb.record(r.ID)
			tb.msgWords(rec).has("stream")
			tb.codeWords(rec).has("stream")
			_ = tb.msgSeq(rec)
			tb.templates(normalizeText(r.MessagePattern))
			tb.words.known("stream")
		}
		rw := tb.patterns.required()
		have := rw.numbers(map[string]bool{"stream": true})
		for mi := range tb.patterns.rec {
			tb.patterns.requiredIn(int32(mi), rw, have)
		}
	})
}

func relevanceDataset(f *testing.F) *errkb.Dataset {
	ds, err := errkb.Load(errkb.Folder{Name: "relevance", FS: os.DirFS("../testdata/relevance/dataset")})
	if err != nil {
		f.Fatal(err)
	}
	return ds
}
