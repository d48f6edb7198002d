//go:build linux

package store

import (
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"unsafe"

	"github.com/errkb/errkb"
)

// A record is saved as a blob of bytes and an entry that says where its
// fields are in the blob. The blob is the record's raw JSON with the
// escaped values of code and Markdown fields cut out (see errkb.RawHole),
// followed by the decoded text of those fields and of any other string
// not spelled out verbatim in what is kept. Every string field then
// points into the blob: decoding an entry copies no text, it only sets
// string headers, and the text is held once, decoded.
//
// An entry is a sequence of varints:
//
//	blob offset in the file, blob length, kept raw length, hole count,
//	presence flags, httpStatus, numericCode, lineNumber, sourceCodeStart,
//	sourceCodeEnd, schemaVersion, source line,
//	lengths of solutions, preventionTips, tags, wraps, wrappedBy, callSites,
//	each call site's line number,
//	then for each of errkb.TextFields, datasetVersion and the source file:
//	its length and, when not empty, its offset in the blob.
//
// The holes of all records are one array of errkb.RawHole, in record order.

const (
	hasHTTPStatus = 1 << iota
	hasNumericCode
	hasContentChangedAt
)

// holeMin is the shortest value worth cutting out of the raw JSON.
const holeMin = 16

// encodeRecord lays out r (whose Raw is complete) as a blob, and returns
// the blob, the entry without its first varint (the blob's offset in the
// file, which the caller prepends) and the holes. fields is scratch space.
func encodeRecord(r *errkb.Record, fields []*string) (blob, entry []byte, holes []errkb.RawHole) {
	raw := r.Raw
	fields = errkb.AppendTextFields(fields[:0], r)
	type cut struct{ at, n, field int }
	var cuts []cut
	var esc []byte
	for k, p := range fields {
		s := *p
		if len(s) < holeMin || !needsEscape(s) {
			continue
		}
		esc = append(esc[:0], '"')
		esc = errkb.AppendJSONString(esc, s)
		esc = append(esc, '"')
		if i := indexIn(raw, unsafe.String(&esc[0], len(esc))); i >= 0 {
			cuts = append(cuts, cut{i + 1, len(esc) - 2, k})
		}
	}
	slices.SortFunc(cuts, func(a, b cut) int { return a.at - b.at })
	blob = make([]byte, 0, len(raw)+len(raw)/8)
	last := 0
	holed := make([]bool, len(fields))
	for _, c := range cuts {
		if c.at < last {
			continue // overlaps the previous cut: the value stays in raw
		}
		blob = append(blob, raw[last:c.at]...)
		holes = append(holes, errkb.RawHole{At: uint32(len(blob)), Field: uint32(c.field)})
		holed[c.field] = true
		last = c.at + c.n
	}
	blob = append(blob, raw[last:]...)
	kept := len(blob)

	var flags uint64
	if r.HTTPStatus != nil {
		flags |= hasHTTPStatus
	}
	if r.NumericCode != nil {
		flags |= hasNumericCode
	}
	if r.ContentChangedAt != nil {
		flags |= hasContentChangedAt
	}
	lenAt := len(entry) // blob length goes here once known
	entry = binary.AppendUvarint(entry, uint64(kept))
	entry = binary.AppendUvarint(entry, uint64(len(holes)))
	entry = binary.AppendUvarint(entry, flags)
	for _, v := range []int{deref(r.HTTPStatus), deref(r.NumericCode), r.LineNumber, r.SourceCodeStart, r.SourceCodeEnd, r.SchemaVersion, r.Source.Line} {
		entry = binary.AppendVarint(entry, int64(v))
	}
	for _, n := range []int{len(r.Solutions), len(r.PreventionTips), len(r.Tags), len(r.Wraps), len(r.WrappedBy), len(r.CallSites)} {
		entry = binary.AppendUvarint(entry, uint64(n))
	}
	for _, c := range r.CallSites {
		entry = binary.AppendVarint(entry, int64(c.LineNumber))
	}
	ref := func(s string, searchKept bool) {
		entry = binary.AppendUvarint(entry, uint64(len(s)))
		if s == "" {
			return
		}
		i := -1
		if searchKept {
			i = indexIn(blob, s)
		}
		if i < 0 {
			i = len(blob)
			blob = append(blob, s...)
		}
		entry = binary.AppendUvarint(entry, uint64(i))
	}
	for k, p := range fields {
		ref(*p, !holed[k])
	}
	ref(r.DatasetVersion, true)
	ref(r.Source.File, true)
	entry = slices.Insert(entry, lenAt, binary.AppendUvarint(nil, uint64(len(blob)))...)
	return blob, entry, holes
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' {
			return true
		}
	}
	return false
}

// decoder turns entries back into records whose strings point into mem,
// the mapping of the file the blobs are in (from byte memOff of it). It
// allocates lists and pointers from slabs, so a dataset's records cost
// a few allocations, not several per record.
type decoder struct {
	mem    []byte
	memOff int64
	holes  []errkb.RawHole // not yet given to a record
	fields []*string
	strs   []string
	sites  []errkb.CallSite
	ints   []int
	texts  []string
}

var errEntry = errors.New("snapshot: damaged record entry")

// decode sets *r from the entry at the start of b and returns the rest.
func (d *decoder) decode(r *errkb.Record, b []byte) ([]byte, error) {
	rd := entryReader{b: b}
	blobOff, blobLen, kept := rd.uint(), rd.uint(), rd.uint()
	nHoles, flags := rd.uint(), rd.uint()
	var ints [7]int
	for i := range ints {
		ints[i] = rd.int()
	}
	var lens [6]uint64
	total := uint64(0)
	for i := range lens {
		lens[i] = rd.uint()
		total += lens[i]
	}
	if rd.err || total > uint64(len(b)) || nHoles > uint64(len(d.holes)) ||
		blobOff < uint64(d.memOff) || blobLen > uint64(len(d.mem)) || blobOff-uint64(d.memOff) > uint64(len(d.mem))-blobLen || kept > blobLen {
		return nil, errEntry
	}
	blob := d.mem[blobOff-uint64(d.memOff):][:blobLen:blobLen]
	*r = errkb.Record{
		LineNumber: ints[2], SourceCodeStart: ints[3], SourceCodeEnd: ints[4], SchemaVersion: ints[5],
	}
	r.Source.Line = ints[6]
	if flags&hasHTTPStatus != 0 {
		r.HTTPStatus = d.int(ints[0])
	}
	if flags&hasNumericCode != 0 {
		r.NumericCode = d.int(ints[1])
	}
	if flags&hasContentChangedAt != 0 {
		r.ContentChangedAt = d.text()
	}
	r.Solutions = d.list(lens[0])
	r.PreventionTips = d.list(lens[1])
	r.Tags = d.list(lens[2])
	r.Wraps = d.list(lens[3])
	r.WrappedBy = d.list(lens[4])
	if n := lens[5]; n > 0 {
		if uint64(len(d.sites)) < n {
			d.sites = make([]errkb.CallSite, max(n, 1024))
		}
		r.CallSites = d.sites[:n:n]
		d.sites = d.sites[n:]
		for i := range r.CallSites {
			r.CallSites[i].LineNumber = rd.int()
		}
	}
	d.fields = errkb.AppendTextFields(d.fields[:0], r)
	str := func() string {
		n := rd.uint()
		if n == 0 || rd.err {
			return ""
		}
		off := rd.uint()
		if rd.err || n > blobLen || off > blobLen-n {
			rd.err = true
			return ""
		}
		return unsafe.String(&blob[off], n)
	}
	for _, p := range d.fields {
		*p = str()
	}
	r.DatasetVersion = str()
	r.Source.File = str()
	if rd.err {
		return nil, errEntry
	}
	holes := d.holes[:nHoles:nHoles]
	d.holes = d.holes[nHoles:]
	at := uint32(0)
	for _, h := range holes {
		if h.At < at || uint64(h.At) > kept || int(h.Field) >= len(d.fields) {
			return nil, errEntry
		}
		at = h.At
	}
	r.SetRawWithHoles(blob[:kept:kept], holes)
	return rd.b, nil
}

func (d *decoder) int(v int) *int {
	if len(d.ints) == 0 {
		d.ints = make([]int, 1024)
	}
	p := &d.ints[0]
	d.ints = d.ints[1:]
	*p = v
	return p
}

func (d *decoder) text() *string {
	if len(d.texts) == 0 {
		d.texts = make([]string, 1024)
	}
	p := &d.texts[0]
	d.texts = d.texts[1:]
	return p
}

func (d *decoder) list(n uint64) []string {
	if n == 0 {
		return nil
	}
	if uint64(len(d.strs)) < n {
		d.strs = make([]string, max(n, 4096))
	}
	l := d.strs[:n:n]
	d.strs = d.strs[n:]
	return l
}

// entryReader reads varints, remembering the first failure.
type entryReader struct {
	b   []byte
	err bool
}

func (rd *entryReader) uint() uint64 {
	v, n := binary.Uvarint(rd.b)
	if n <= 0 {
		rd.err = true
		return 0
	}
	rd.b = rd.b[n:]
	return v
}

func (rd *entryReader) int() int {
	v, n := binary.Varint(rd.b)
	if n <= 0 {
		rd.err = true
		return 0
	}
	rd.b = rd.b[n:]
	return int(v)
}

// indexIn returns where s occurs in raw, or -1. It looks for a short
// prefix, which the runtime finds with vector instructions, and checks the
// rest only there.
func indexIn(raw []byte, s string) int {
	if len(raw) == 0 {
		return -1
	}
	prefix := s[:min(len(s), 32)]
	for from := 0; ; {
		i := strings.Index(unsafe.String(unsafe.SliceData(raw[from:]), len(raw)-from), prefix)
		if i < 0 {
			return -1
		}
		i += from
		if len(raw)-i >= len(s) && string(raw[i:i+len(s)]) == s {
			return i
		}
		from = i + 1
	}
}
