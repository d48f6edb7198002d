package bleveshim

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"

	"github.com/errkb/errkb"
)

// sameTokens reports how the tokens of wordTokenizer and bleve's unicode
// tokenizer differ on input, or "" when they are the same in every field.
func sameTokens(input []byte) string {
	// Both tokenizers return terms pointing into their input; copies
	// keep one from seeing what a filter might do to the other's.
	want := unicodeTokenizer.Tokenize(append([]byte(nil), input...))
	got := wordTokenizer{}.Tokenize(append([]byte(nil), input...))
	for i := range max(len(want), len(got)) {
		var w, g *analysis.Token
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w == nil || g == nil || string(w.Term) != string(g.Term) || w.Start != g.Start || w.End != g.End ||
			w.Position != g.Position || w.Type != g.Type || w.KeyWord != g.KeyWord {
			return fmt.Sprintf("token %d: unicode tokenizer %v, words tokenizer %v", i, w, g)
		}
	}
	return ""
}

func TestWordTokenizerMatchesUnicode(t *testing.T) {
	for _, in := range []string{
		"", "a", "_", "__init__", "1", "1,000.5", "a.b", "os.Open(name)", "don't", "John's",
		"err_code=10059 description=stream not found", "v1.2.3", "x2 2x _1 1_ a_1",
		"trailing. comma, colon: semi; quote' 'lead", "..a..", "a::b", "a.1 1.a",
		"line one\nline two\r\nthree", "\n\n", "naïve café\nplain ascii", "日本語のテキスト abc",
		"tab\tsep|pipe/slash-dash", "e\u0301 combining", "\x00\x01\x7f",
	} {
		if d := sameTokens([]byte(in)); d != "" {
			t.Errorf("%q: %s", in, d)
		}
	}
}

// TestWordTokenizerOnShippedRecords tokenizes every text of the shipped
// records both ways: each string the record holds (a superset of what the
// index's documents hold), and all of them joined by line breaks, as the
// documents join their prose and code fields.
func TestWordTokenizerOnShippedRecords(t *testing.T) {
	ds, err := errkb.Load(errkb.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	fields := 0
	for _, r := range ds.Records {
		texts := recordTexts(reflect.ValueOf(r), nil)
		for i, s := range append(texts, strings.Join(texts, "\n")) {
			fields++
			if d := sameTokens([]byte(s)); d != "" {
				t.Fatalf("record %s text %d: %s\n%.200q", r.ID, i, d, s)
			}
		}
	}
	if fields < 1000 {
		t.Fatalf("compared %d fields; the shipped dataset should have many more", fields)
	}
}

// recordTexts appends every non-empty string v holds, in structs,
// slices, maps and pointers.
func recordTexts(v reflect.Value, out []string) []string {
	switch v.Kind() {
	case reflect.String:
		if v.Len() > 0 {
			out = append(out, v.String())
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			out = recordTexts(v.Elem(), out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				out = recordTexts(v.Field(i), out)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			out = recordTexts(v.Index(i), out)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			out = recordTexts(it.Value(), out)
		}
	}
	return out
}

func FuzzWordTokenizer(f *testing.F) {
	for _, s := range []string{
		"os.Open: no such file", "1,000.5 _x_ a'b", "func (c *Conn) Close() error {\n\treturn c.err\n}",
		"naïve\ncafé", "e\u0301", "a\r\nb", strings.Repeat("ab.", 20),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		if d := sameTokens(input); d != "" {
			t.Fatalf("%q: %s", input, d)
		}
	})
}
