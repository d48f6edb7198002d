//go:build linux

package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/errkb/errkb"
)

// TestEveryFieldRoundTrips fills every field of a Record that has a JSON
// name, found by reflection rather than listed, with a value of its own
// (strings long and escaped enough to be cut out of the raw JSON), and
// saves and reads it back as a restart (a snapshot) and as a first start
// (a spill) do. The record must read the same, raw JSON included. A field
// added to errkb's table round-trips with no change to this package; one
// added to Record but not to the table is lost, and named here.
func TestEveryFieldRoundTrips(t *testing.T) {
	for _, tc := range []struct {
		name      string
		heapShort bool
	}{{"snapshot", true}, {"spill", false}} {
		t.Run(tc.name, func(t *testing.T) {
			want := filledRecord(t)
			want.DatasetVersion = "2026-01-01"
			want.Location = errkb.Location{File: "gen/part-00000.jsonl", Line: 7}
			blob, body := encodeRecord(want, &scratch{})
			entry := append(binary.AppendUvarint(nil, 0), body...)
			d := decoder{mem: blob, heapShort: tc.heapShort}
			var got errkb.Record
			rest, _, err := d.decode(&got, entry)
			if err != nil || len(rest) != 0 {
				t.Fatalf("decode: %v, %d bytes left", err, len(rest))
			}
			if g, w := string(got.RawJSON()), string(want.RawJSON()); g != w {
				t.Fatalf("raw JSON read back:\n%s\nwant\n%s", g, w)
			}
			got.HoldRaw(want.RawJSON(), nil)
			gv, wv := reflect.ValueOf(got), reflect.ValueOf(*want)
			for i := range gv.NumField() {
				if !gv.Type().Field(i).IsExported() {
					continue
				}
				if g, w := gv.Field(i).Interface(), wv.Field(i).Interface(); !reflect.DeepEqual(g, w) {
					t.Errorf("field %s read back as %#v, want %#v: is it in errkb's field table?", gv.Type().Field(i).Name, g, w)
				}
			}
			if !reflect.DeepEqual(got, *want) {
				t.Errorf("record read back differs:\n%+v\nwant\n%+v", got, *want)
			}
		})
	}
}

// filledRecord is a Record with every JSON field set to a value of its
// own; its raw JSON is the record marshalled.
func filledRecord(t *testing.T) *errkb.Record {
	t.Helper()
	r := &errkb.Record{}
	n := 0
	fill(reflect.ValueOf(r).Elem(), &n)
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	r.HoldRaw(raw, nil)
	return r
}

// fill sets every field of the struct v that has a JSON name, counting
// values in *n so that no two are alike.
func fill(v reflect.Value, n *int) {
	for i := range v.NumField() {
		sf := v.Type().Field(i)
		if name, _, _ := strings.Cut(sf.Tag.Get("json"), ","); !sf.IsExported() || name == "" || name == "-" {
			continue
		}
		fillValue(v.Field(i), sf.Name, n)
	}
}

func fillValue(v reflect.Value, name string, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		// Long, with a line break and quotes: escaped in the raw JSON.
		v.SetString(fmt.Sprintf("%s %d: \"value\"\n%s", name, *n, strings.Repeat("x", 70)))
	case reflect.Int:
		v.SetInt(int64(*n) * 1000003)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fillValue(v.Elem(), name, n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for k := range 2 {
			fillValue(v.Index(k), fmt.Sprintf("%s[%d]", name, k), n)
		}
	case reflect.Struct:
		fill(v, n)
	default:
		panic("no value for a field of kind " + v.Kind().String())
	}
}
