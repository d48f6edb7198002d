package tabfile

import (
	"slices"
	"testing"
)

// written is a file of every kind of section, and what reading it back
// must give.
func written(t *testing.T) []byte {
	t.Helper()
	w := &Writer{}
	w.Bytes("raw", []byte("hello"))
	w.Uint32s("u", []uint32{1, 2, 3})
	w.Int32s("i", []int32{-1, 7})
	w.Float64s("f", []float64{0.5})
	w.Strings("s", []string{"alpha", "", "gamma"})
	w.Postings("p", []string{"a", "b"}, [][]int32{{0, 2}, {1}})
	return w.Finish(3)
}

func TestReadsWhatWasWritten(t *testing.T) {
	r, err := Read(aligned(written(t)), 3)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(r.Bytes("raw")); got != "hello" {
		t.Errorf("raw = %q", got)
	}
	if got := Slice[uint32](r, "u"); !slices.Equal(got, []uint32{1, 2, 3}) {
		t.Errorf("u = %v", got)
	}
	if got := Slice[int32](r, "i"); !slices.Equal(got, []int32{-1, 7}) {
		t.Errorf("i = %v", got)
	}
	if got := Slice[float64](r, "f"); !slices.Equal(got, []float64{0.5}) {
		t.Errorf("f = %v", got)
	}
	s := r.Strings("s")
	if s.Len() != 3 || s.At(0) != "alpha" || s.At(1) != "" || s.At(2) != "gamma" {
		t.Errorf("s = %d strings", s.Len())
	}
	p := r.Postings("p")
	for _, tc := range []struct {
		key  string
		want []int32
	}{{"a", []int32{0, 2}}, {"b", []int32{1}}, {"c", nil}, {"", nil}} {
		if got := p.Get(tc.key); !slices.Equal(got, tc.want) {
			t.Errorf("postings of %q = %v, want %v", tc.key, got, tc.want)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	r.Bytes("no-such-section")
	if r.Err() == nil {
		t.Error("a missing section recorded no error")
	}
}

func TestReadRefusesDamage(t *testing.T) {
	data := written(t)
	for _, tc := range []struct {
		name    string
		data    []byte
		version uint32
	}{
		{"another version", aligned(data), 2},
		{"empty", nil, 3},
		{"not a tables file", aligned(append([]byte("not-tables-at-all"), data[16:]...)), 3},
		{"truncated header", aligned(data[:len(magic)+12]), 3},
		{"truncated sections", aligned(data[:len(data)-16]), 3},
		{"misaligned", append(make([]byte, 1, len(data)+1), data...)[1:], 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Read(tc.data, tc.version)
			if err == nil {
				// A truncated section is found when it is read.
				r.Bytes("raw")
				r.Strings("s")
				r.Postings("p")
				err = r.Err()
			}
			if err == nil {
				t.Error("damaged file read without an error")
			}
		})
	}
}

// aligned copies b into memory aligned as a mapping is.
func aligned(b []byte) []byte {
	words := make([]float64, (len(b)+7)/8+1)
	out := AsBytes(words)[:len(b)]
	copy(out, b)
	return out
}
