package store

import (
	"encoding/binary"
	"errors"
	"sync"

	"github.com/errkb/errkb"
)

// This package keeps a record's raw JSON with parts cut out ("holes") that
// it can put back exactly: the escaped values of string fields, which are
// then held once, decoded, instead of twice (decoded for pages and escaped
// in the raw JSON for the API), and the known keys ("errorMessage":),
// which every record repeats. A value is cut only where appendJSONString
// reproduces the cut bytes exactly, so the API serves the record byte for
// byte as it was given.
//
// What a record holds in place of its raw JSON (errkb.Record.HoldRaw) is
// the holes' length (a uvarint), the holes, and the kept bytes. The holes
// are pairs of uvarints: the distance from the previous hole's position
// in the kept bytes (from 0 for the first), and what goes there: 2k for
// the k-th of errkb.AppendTexts, escaped, 2k+1 for tokens[k].

// tokens are the known keys as the raw JSON spells them, colon included.
var tokens = func() []string {
	var ts []string
	for _, k := range errkb.KnownKeys() {
		ts = append(ts, `"`+k+`":`)
	}
	return ts
}()

// tokenIndex maps each known key to its token.
var tokenIndex = func() map[string]int {
	m := make(map[string]int, len(tokens))
	for k, t := range tokens {
		m[t[1:len(t)-2]] = k
	}
	return m
}()

// appendHole appends the hole at distance gap from the previous one,
// holding text k (token false) or tokens[k] (token true).
func appendHole(b []byte, gap, k int, token bool) []byte {
	what := uint64(k) << 1
	if token {
		what |= 1
	}
	return binary.AppendUvarint(binary.AppendUvarint(b, uint64(gap)), what)
}

// appendHeld appends what a record holds of kept bytes and their holes.
func appendHeld(b, kept, holes []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(holes)))
	return append(append(b, holes...), kept...)
}

var errHoles = errors.New("raw JSON holes out of range")

// splitHeld splits what a record holds into the kept bytes and the holes.
func splitHeld(held []byte) (kept, holes []byte, err error) {
	n, i := binary.Uvarint(held)
	if i <= 0 || n > uint64(len(held)-i) {
		return nil, nil, errHoles
	}
	return held[i+int(n):], held[i : i+int(n)], nil
}

// rawHolder is the errkb.RawHolder of every record this package holds.
type rawHolder struct{}

// RawJSON splices the holes of held back with r's text.
func (rawHolder) RawJSON(r *errkb.Record, held []byte) []byte {
	kept, holes, err := splitHeld(held)
	if err != nil {
		return held // never held so: checkHeld refused it
	}
	if len(holes) == 0 {
		return kept
	}
	scratch := textsPool.Get().(*[]errkb.Text)
	texts := errkb.AppendTexts((*scratch)[:0], r)
	defer func() {
		clear(texts) // the pool keeps no record alive
		*scratch = texts[:0]
		textsPool.Put(scratch)
	}()
	_, n, err := spliceHoles(nil, kept, holes, texts, true)
	if err != nil {
		return kept // never held so: checkHeld refused it
	}
	out, _, _ := spliceHoles(make([]byte, 0, n), kept, holes, texts, false)
	return out
}

// textsPool holds the space RawJSON lists a record's texts in: the API
// asks for raw JSON on every record it serves.
var textsPool = sync.Pool{New: func() any { return new([]errkb.Text) }}

// checkHeld reports whether held is what a record with these texts can
// hold: the holes fit the kept bytes, and each names a text or a token.
func checkHeld(held []byte, texts []errkb.Text) error {
	kept, holes, err := splitHeld(held)
	if err != nil {
		return err
	}
	_, _, err = spliceHoles(nil, kept, holes, texts, true)
	return err
}

// spliceHoles appends kept with the holes filled to out, or, when count
// is set, only returns about the length that would have (at least it).
func spliceHoles(out, kept, holes []byte, texts []errkb.Text, count bool) ([]byte, int, error) {
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
		case what&1 == 1 && k < uint64(len(tokens)):
			s = tokens[k]
		case what&1 == 0 && k < uint64(len(texts)):
			s = *texts[k].P
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
				out = appendJSONString(out, s)
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

// appendJSONString appends s escaped as a JSON string's contents (without
// the quotes): quote, backslash and control characters escaped the short
// way where JSON has one, everything else, '<', '>', '&' and non-ASCII
// UTF-8 included, as is. This is how the dataset's tools write JSON;
// values written otherwise are simply not cut out.
func appendJSONString(b []byte, s string) []byte {
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
