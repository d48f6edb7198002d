package kbgen

import (
	"strconv"
	"strings"
	"testing"
)

// TestNumericCode: records of projects with numeric codes carry the
// number as numericCode, as JetStream's err_code sits beside its code, and
// the others carry none.
func TestNumericCode(t *testing.T) {
	g := NewGenerator(1)
	with, without := 0, 0
	for i := range 2000 {
		r := g.Record(i)
		numeric := g.projects[i%len(g.projects)].codeStyle == codeNumeric
		switch {
		case numeric && r.NumericCode == nil:
			t.Fatalf("%s (%s): no numericCode", r.ID, r.ErrorCode)
		case numeric && !strings.HasSuffix(r.ErrorCode, strconv.Itoa(*r.NumericCode)):
			t.Fatalf("%s: numericCode %d for code %s", r.ID, *r.NumericCode, r.ErrorCode)
		case !numeric && r.NumericCode != nil:
			t.Fatalf("%s (%s): numericCode %d", r.ID, r.ErrorCode, *r.NumericCode)
		case numeric:
			with++
		default:
			without++
		}
	}
	if with == 0 || without == 0 {
		t.Errorf("%d records with a numeric code, %d without; want both", with, without)
	}
}
