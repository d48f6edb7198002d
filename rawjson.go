package errkb

import (
	"encoding/binary"
	"errors"
)

// A storage engine may keep a record's raw JSON with parts cut out
// ("holes") that it can put back exactly: the escaped values of string
// fields, which are then held once, decoded, instead of twice (decoded
// for pages and escaped in the raw JSON for the API), and the known keys
// ("errorMessage":), which every record repeats. RawJSON splices them
// back. A value is cut only where AppendJSONString reproduces the cut
// bytes exactly, so the API serves the record byte for byte as it was
// given.
//
// The holes are encoded as pairs of uvarints: the distance from the
// previous hole's position in the kept bytes (from 0 for the first), and
// what goes there: 2k for TextFields(r)[k], escaped, 2k+1 for
// RawTokens[k].

// RawTokens are the known keys as the raw JSON spells them, colon
// included, in knownFields' order followed by the call sites' keys.
var RawTokens = func() []string {
	var ts []string
	for _, f := range knownFields {
		ts = append(ts, `"`+f.name+`":`)
	}
	for _, name := range callSiteFields {
		ts = append(ts, `"`+name+`":`)
	}
	return ts
}()

// AppendRawHole appends the hole at distance gap from the previous one,
// holding text field k (token false) or RawTokens[k] (token true).
func AppendRawHole(b []byte, gap, k int, token bool) []byte {
	what := uint64(k) << 1
	if token {
		what |= 1
	}
	return binary.AppendUvarint(binary.AppendUvarint(b, uint64(gap)), what)
}

// RawJSON is the record object exactly as it appeared in its file.
func (r *Record) RawJSON() []byte {
	if len(r.holes) == 0 {
		return r.Raw
	}
	fields := TextFields(r)
	_, n, err := spliceHoles(nil, r.Raw, r.holes, fields, true)
	if err != nil {
		return r.Raw // not as SetRawWithHoles promised; never cut so
	}
	out, _, _ := spliceHoles(make([]byte, 0, n), r.Raw, r.holes, fields, false)
	return out
}

var errHoles = errors.New("raw JSON holes out of range")

// spliceHoles appends kept with the holes filled to out, or, when count
// is set, only returns about the length that would have (at least it).
func spliceHoles(out, kept, holes []byte, fields []*string, count bool) ([]byte, int, error) {
	n, at, last := 0, uint64(0), uint64(0)
	for len(holes) > 0 {
		gap, i := binary.Uvarint(holes)
		if i <= 0 {
			return nil, 0, errHoles
		}
		what, j := binary.Uvarint(holes[i:])
		if j <= 0 || gap > uint64(len(kept))-at {
			return nil, 0, errHoles
		}
		holes = holes[i+j:]
		at += gap
		var s string
		switch k := what >> 1; {
		case what&1 == 1 && k < uint64(len(RawTokens)):
			s = RawTokens[k]
		case what&1 == 0 && k < uint64(len(fields)):
			s = *fields[k]
		default:
			return nil, 0, errHoles
		}
		if count {
			n += int(at-last) + len(s) + len(s)/4 + 16 // escapes are rare
		} else {
			out = append(out, kept[last:at]...)
			if what&1 == 1 {
				out = append(out, s...)
			} else {
				out = AppendJSONString(out, s)
			}
		}
		last = at
	}
	if count {
		return nil, n + len(kept) - int(last), nil
	}
	out = append(out, kept[last:]...)
	return out, len(out), nil
}

// CheckRawHoles reports whether holes, encoded as above, fit kept and
// fields: what SetRawWithHoles requires.
func CheckRawHoles(kept, holes []byte, fields []*string) error {
	_, _, err := spliceHoles(nil, kept, holes, fields, true)
	return err
}

// SetRawWithHoles sets the record's raw JSON as kept bytes and the holes
// cut out of them, which CheckRawHoles accepts; RawJSON then returns the
// original bytes.
func (r *Record) SetRawWithHoles(kept, holes []byte) {
	r.Raw = kept
	r.holes = holes
}

// RawHoles are the encoded holes set by SetRawWithHoles.
func (r *Record) RawHoles() []byte { return r.holes }

// TextFields lists every string the record holds of its JSON, in a fixed
// order: the string fields of knownFields that are present, each entry of
// the list fields, and each call site's file path, function and URL.
func TextFields(r *Record) []*string { return AppendTextFields(make([]*string, 0, 32), r) }

// AppendTextFields appends TextFields(r) to ps.
func AppendTextFields(ps []*string, r *Record) []*string {
	for _, f := range knownFields {
		switch {
		case f.str != nil:
			if p := f.str(r); p != nil {
				ps = append(ps, p)
			}
		case f.list != nil:
			l := f.list(r)
			for i := range l {
				ps = append(ps, &l[i])
			}
		case f.kind == kindCallSites:
			for i := range r.CallSites {
				c := &r.CallSites[i]
				ps = append(ps, &c.FilePath, &c.Function, &c.GithubURL)
			}
		}
	}
	return ps
}

// AppendTextFieldsSpillable appends, for each of TextFields(r), whether
// it is one of SpillableStrings (prose or code, long enough to be worth
// keeping out of the heap) to dst.
func AppendTextFieldsSpillable(dst []bool, r *Record) []bool {
	for _, f := range knownFields {
		switch {
		case f.str != nil:
			if f.str(r) != nil {
				dst = append(dst, f.spill)
			}
		case f.list != nil:
			for range f.list(r) {
				dst = append(dst, f.spill)
			}
		case f.kind == kindCallSites:
			for range r.CallSites {
				dst = append(dst, false, false, false)
			}
		}
	}
	return dst
}

// AppendJSONString appends s escaped as a JSON string's contents (without
// the quotes): quote, backslash and control characters escaped the short
// way where JSON has one, everything else, '<', '>', '&' and non-ASCII
// UTF-8 included, as is. This is how the dataset's tools write JSON;
// values written otherwise are simply not cut out.
func AppendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\t':
			b = append(b, '\\', 't')
		case '\r':
			b = append(b, '\\', 'r')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		}
		start = i + 1
	}
	return append(b, s[start:]...)
}
