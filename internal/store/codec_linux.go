//go:build linux

package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"unsafe"

	"github.com/errkb/errkb"
)

// A record is saved as a blob of bytes and an entry that says where its
// fields are in the blob. The blob is the record's raw JSON with holes
// (errkb.RawHoles): the escaped values of code and Markdown fields and the
// known keys cut out; then the decoded text of those fields and of any
// other string not spelled out verbatim in what is kept. Every string
// field points into the blob: decoding an entry copies no text, it only
// sets string headers, and the text is held once, decoded.
//
// An entry is a sequence of varints:
//
//	blob offset in the file, blob length, kept raw length, holes' length,
//	presence flags, httpStatus, numericCode, lineNumber, sourceCodeStart,
//	sourceCodeEnd, schemaVersion, source line,
//	lengths of solutions, preventionTips, tags, wraps, wrappedBy, callSites,
//	each call site's line number,
//	the holes, as errkb encodes them,
//	then for each of errkb.TextFields, datasetVersion and the source file:
//	its length and, when not empty, its offset in the blob less the end of
//	the previous string (fields mostly follow each other in the raw JSON,
//	so this is a byte where the offset would be two).

const (
	hasHTTPStatus = 1 << iota
	hasNumericCode
	hasContentChangedAt
)

// holeMin is the shortest value worth cutting out of the raw JSON.
const holeMin = 8

var tokenIndex = func() map[string]int {
	m := make(map[string]int)
	for k, t := range errkb.RawTokens {
		if _, ok := m[t[1:len(t)-2]]; !ok {
			m[t[1:len(t)-2]] = k
		}
	}
	return m
}()

type cut struct {
	at, n, k int
	token    bool
}

// keyCuts finds the known keys in raw: strings followed by a colon.
func keyCuts(raw []byte, cuts []cut) []cut {
	open := -1
	for i := 0; ; i++ {
		j := bytes.IndexByte(raw[i:], '"')
		if j < 0 {
			return cuts
		}
		i += j
		if escapedAt(raw, i) {
			continue
		}
		if open < 0 {
			open = i
			continue
		}
		if i+1 < len(raw) && raw[i+1] == ':' {
			if k, ok := tokenIndex[string(raw[open+1:i])]; ok {
				cuts = append(cuts, cut{at: open, n: i + 2 - open, k: k, token: true})
			}
		}
		open = -1
	}
}

// escapedAt reports whether the quote at i follows an odd number of
// backslashes.
func escapedAt(raw []byte, i int) bool {
	n := 0
	for i > 0 && raw[i-1] == '\\' {
		n++
		i--
	}
	return n%2 == 1
}

// encodeRecord lays out r (whose Raw is complete) as a blob, and returns
// the blob and the entry without its first varint (the blob's offset in
// the file, which the caller prepends). fields is scratch space.
func encodeRecord(r *errkb.Record, fields []*string) (blob, entry []byte) {
	raw := r.Raw
	fields = errkb.AppendTextFields(fields[:0], r)
	cuts := keyCuts(raw, nil)
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
			cuts = append(cuts, cut{at: i + 1, n: len(esc) - 2, k: k})
		}
	}
	slices.SortFunc(cuts, func(a, b cut) int { return a.at - b.at })
	blob = make([]byte, 0, len(raw)+len(raw)/8)
	var holes []byte
	last, lastAt := 0, 0
	holed := make([]bool, len(fields))
	for _, c := range cuts {
		if c.at < last {
			continue // overlaps the previous cut: these bytes stay
		}
		blob = append(blob, raw[last:c.at]...)
		holes = errkb.AppendRawHole(holes, len(blob)-lastAt, c.k, c.token)
		lastAt = len(blob)
		if !c.token {
			holed[c.k] = true
		}
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
	entry = append(entry, holes...)
	end := 0 // of the previous string in the blob
	ref := func(s string, searchKept bool) {
		entry = binary.AppendUvarint(entry, uint64(len(s)))
		if s == "" {
			return
		}
		i := -1
		if searchKept {
			// Most fields follow the previous one: look there first.
			if i = indexIn(blob[min(end, len(blob)):], s); i >= 0 {
				i += min(end, len(blob))
			} else {
				i = indexIn(blob, s)
			}
		}
		if i < 0 {
			i = len(blob)
			blob = append(blob, s...)
		}
		entry = binary.AppendVarint(entry, int64(i-end))
		end = i + len(s)
	}
	for k, p := range fields {
		ref(*p, !holed[k])
	}
	ref(r.DatasetVersion, true)
	ref(r.Source.File, true)
	entry = slices.Insert(entry, 0, binary.AppendUvarint(nil, uint64(len(blob)))...)
	return blob, entry
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
	// heapShort copies the short fields out of the mapping (see
	// copyShort); the spill path keeps the heap strings it has.
	heapShort bool
	arena     []byte
	interned  map[string]string
	spillable []bool
	fields    []*string
	strs      []string
	sites     []errkb.CallSite
	ints      []int
	texts     []string
}

var errEntry = errors.New("snapshot: damaged record entry")

// decode sets *r from the entry at the start of b and returns the rest.
// The record's holes point into b.
func (d *decoder) decode(r *errkb.Record, b []byte) ([]byte, error) {
	rd := entryReader{b: b}
	blobOff, blobLen, kept := rd.uint(), rd.uint(), rd.uint()
	holesLen, flags := rd.uint(), rd.uint()
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
	if rd.err || total > uint64(len(b)) ||
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
	if rd.err || holesLen > uint64(len(rd.b)) {
		return nil, errEntry
	}
	holes := rd.b[:holesLen:holesLen]
	rd.b = rd.b[holesLen:]
	d.fields = errkb.AppendTextFields(d.fields[:0], r)
	end := int64(0)
	str := func() string {
		n := rd.uint()
		if n == 0 || rd.err {
			return ""
		}
		off := end + int64(rd.int())
		if rd.err || n > blobLen || off < 0 || uint64(off) > blobLen-n {
			rd.err = true
			return ""
		}
		end = off + int64(n)
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
	if err := errkb.CheckRawHoles(blob[:kept], holes, d.fields); err != nil {
		return nil, errEntry
	}
	if d.heapShort {
		d.copyShort(r)
	}
	if len(holes) == 0 {
		holes = nil
	}
	r.SetRawWithHoles(blob[:kept:kept], holes)
	return rd.b, nil
}

// copyShort moves the fields that stay on the heap when a dataset is
// loaded from its files (ids, repo, slug, code, message, class, tags, and
// prose or code shorter than spillMin) out of the mapping, into arenas of
// a megabyte. Search reads such fields of every candidate, at 100,000
// records of every record for broad queries: in the mapping, that made a
// page of every record resident (565 MiB of file pages after 400 requests
// against 374 MiB before); in arenas without pointers they are heap that
// the garbage collector does not scan. Values that records share (repo,
// severity, tags, commit) are held once; call sites' long strings (URLs),
// which only pages read, stay in the mapping.
func (d *decoder) copyShort(r *errkb.Record) {
	for _, p := range []*string{&r.Repo, &r.Severity, &r.ErrorType, &r.BackgroundTag, &r.GoPackage, &r.AnalyzedSha, &r.DatasetVersion, &r.Source.File} {
		*p = d.intern(*p)
	}
	for i := range r.Tags {
		r.Tags[i] = d.intern(r.Tags[i])
	}
	d.spillable = errkb.AppendTextFieldsSpillable(d.spillable[:0], r)
	for k, p := range d.fields {
		if len(*p) == 0 || !d.mapped(*p) {
			continue
		}
		if !d.spillable[k] && len(*p) >= spillMin && d.inCallSites(r, p) {
			continue
		}
		if !d.spillable[k] || len(*p) < spillMin {
			*p = d.copy(*p)
		}
	}
}

func (d *decoder) mapped(s string) bool {
	if len(d.mem) == 0 {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(&d.mem[0]))
	return p >= lo && p < lo+uintptr(len(d.mem))
}

func (d *decoder) inCallSites(r *errkb.Record, p *string) bool {
	for i := range r.CallSites {
		c := &r.CallSites[i]
		if p == &c.FilePath || p == &c.Function || p == &c.GithubURL {
			return true
		}
	}
	return false
}

func (d *decoder) copy(s string) string {
	if len(d.arena) < len(s) {
		d.arena = make([]byte, max(len(s), 1<<20))
	}
	b := d.arena[:len(s):len(s)]
	d.arena = d.arena[len(s):]
	copy(b, s)
	return unsafe.String(&b[0], len(b))
}

// intern copies s once for all records that share it.
func (d *decoder) intern(s string) string {
	if s == "" || len(s) > 64 {
		return s
	}
	if c, ok := d.interned[s]; ok {
		return c
	}
	if d.interned == nil {
		d.interned = make(map[string]string)
	}
	c := strings.Clone(s)
	d.interned[c] = c
	return c
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
