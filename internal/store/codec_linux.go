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
// fields are in the blob. The blob starts with what the record holds in
// place of its raw JSON (holes.go): the raw JSON with the known keys and
// the escaped values of its long text fields cut out. Then comes the
// decoded text of those fields and of any other string not spelled out
// verbatim in what is kept. Every string field points into the blob:
// decoding an entry copies no text, it only sets string headers, and the
// text is held once, decoded.
//
// An entry is a sequence of varints:
//
//	blob offset in the file, blob length, held length, source line,
//	the record's shape (errkb.AppendShape: integers, which nullable
//	fields are there, the lengths of lists and arrays of objects),
//	then for each of errkb.AppendTexts, datasetVersion and the source
//	file: its length and, when not empty, its offset in the blob less the
//	end of the previous string (fields mostly follow each other in the raw
//	JSON, so this is a byte where the offset would be two).
//
// The layout names no field: the shape and the texts are errkb's walk of
// its field table, so a field added to the table is saved and read back
// with no change here (TestEveryFieldRoundTrips).

// holeMin is the shortest value worth cutting out of the raw JSON.
const holeMin = 8

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

// scratch is the space encodeRecord reuses from one record to the next.
type scratch struct {
	texts []errkb.Text
	shape []int64
	cuts  []cut
	holed []bool
	holes []byte
}

// encodeRecord lays out r (not yet held) as a blob, and returns the blob
// and the entry without its first varint (the blob's offset in the file,
// which the caller prepends).
func encodeRecord(r *errkb.Record, sc *scratch) (blob, entry []byte) {
	raw := r.RawJSON()
	sc.texts = errkb.AppendTexts(sc.texts[:0], r)
	cuts := keyCuts(raw, sc.cuts[:0])
	var esc []byte
	for k, t := range sc.texts {
		s := *t.P
		if len(s) < holeMin || !needsEscape(s) {
			continue
		}
		esc = append(esc[:0], '"')
		esc = appendJSONString(esc, s)
		esc = append(esc, '"')
		if i := indexIn(raw, unsafe.String(&esc[0], len(esc))); i >= 0 {
			cuts = append(cuts, cut{at: i + 1, n: len(esc) - 2, k: k})
		}
	}
	slices.SortFunc(cuts, func(a, b cut) int { return a.at - b.at })
	// The holes first, as the kept bytes will have them.
	holed := slices.Grow(sc.holed[:0], len(sc.texts))[:len(sc.texts)]
	clear(holed)
	holes := sc.holes[:0]
	kept := cuts[:0] // the cuts made: none overlaps the previous one
	last, keptLen, lastAt := 0, 0, 0
	for _, c := range cuts {
		if c.at < last {
			continue // overlaps the previous cut: these bytes stay
		}
		keptLen += c.at - last
		holes = appendHole(holes, keptLen-lastAt, c.k, c.token)
		lastAt = keptLen
		if !c.token {
			holed[c.k] = true
		}
		last = c.at + c.n
		kept = append(kept, c)
	}
	blob = make([]byte, 0, len(raw)+len(raw)/8+len(holes)+binary.MaxVarintLen64)
	blob = binary.AppendUvarint(blob, uint64(len(holes)))
	blob = append(blob, holes...)
	last = 0
	for _, c := range kept {
		blob = append(blob, raw[last:c.at]...)
		last = c.at + c.n
	}
	blob = append(blob, raw[last:]...)
	sc.cuts, sc.holed, sc.holes = cuts, holed, holes
	held := len(blob)

	entry = binary.AppendUvarint(entry, uint64(held))
	entry = binary.AppendVarint(entry, int64(r.Location.Line))
	sc.shape = errkb.AppendShape(sc.shape[:0], r)
	for _, v := range sc.shape {
		entry = binary.AppendVarint(entry, v)
	}
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
	for k, t := range sc.texts {
		ref(*t.P, !holed[k])
	}
	ref(r.DatasetVersion, true)
	ref(r.Location.File, true)
	entry = slices.Insert(entry, 0, binary.AppendUvarint(nil, uint64(len(blob)))...)
	return blob, entry
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
// allocates lists and pointers from an arena, so a dataset's records cost
// a few allocations, not several per record.
type decoder struct {
	mem    []byte
	memOff int64
	// heapShort copies the short fields out of the mapping (see
	// copyShort); the spill path keeps the heap strings it has.
	heapShort bool
	arena     errkb.Arena
	rd        entryReader
	next      func() int64 // reads the next varint of rd
	heap      []byte
	interned  map[string]string
	// texts and held are those of the record decoded last.
	texts []errkb.Text
	held  []byte
}

var errEntry = errors.New("snapshot: damaged record entry")

// decode sets *r from the entry at the start of b and returns the rest
// and the blob's offset in the file.
func (d *decoder) decode(r *errkb.Record, b []byte) (rest []byte, blobOff uint64, err error) {
	d.rd = entryReader{b: b}
	rd := &d.rd
	blobOff, blobLen, heldLen := rd.uint(), rd.uint(), rd.uint()
	line := rd.int()
	if rd.err || blobOff < uint64(d.memOff) || blobLen > uint64(len(d.mem)) || blobOff-uint64(d.memOff) > uint64(len(d.mem))-blobLen || heldLen > blobLen {
		return nil, 0, errEntry
	}
	blob := d.mem[blobOff-uint64(d.memOff):][:blobLen:blobLen]
	*r = errkb.Record{}
	if d.next == nil {
		d.next = func() int64 { return int64(d.rd.int()) }
	}
	var ok bool
	if d.texts, ok = d.arena.SetShape(r, d.next, d.texts[:0]); !ok || rd.err {
		return nil, 0, errEntry
	}
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
	for _, t := range d.texts {
		*t.P = str()
	}
	r.DatasetVersion = str()
	r.Location.File = str()
	r.Location.Line = line
	held := blob[:heldLen:heldLen]
	if rd.err || checkHeld(held, d.texts) != nil {
		return nil, 0, errEntry
	}
	if d.heapShort {
		d.copyShort(r)
	}
	r.HoldRaw(held, rawHolder{})
	d.held = held
	return rd.b, blobOff, nil
}

// copyShort moves the fields that stay on the heap when a dataset is
// loaded from its files out of the mapping, into arenas of a megabyte:
// all but the long values of bulk fields (prose, code and links), which
// only pages read. Search reads such fields of every candidate, at
// 100,000 records of every record for broad queries: in the mapping, that
// made a page of every record resident (565 MiB of file pages after 400
// requests against 374 MiB before); in arenas without pointers they are
// heap that the garbage collector does not scan. Values that records
// share (repo, severity, tags, commit) are held once. It reads d.texts,
// the texts of r.
func (d *decoder) copyShort(r *errkb.Record) {
	for _, t := range d.texts {
		p := t.P
		if t.Shared {
			*p = d.intern(*p)
		}
		if len(*p) == 0 || !d.mapped(*p) {
			continue
		}
		if !t.Bulk || len(*p) < spillMin {
			*p = d.copy(*p)
		}
	}
	r.DatasetVersion = d.intern(r.DatasetVersion)
	r.Location.File = d.intern(r.Location.File)
}

func (d *decoder) mapped(s string) bool {
	if len(d.mem) == 0 {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(&d.mem[0]))
	return p >= lo && p < lo+uintptr(len(d.mem))
}

func (d *decoder) copy(s string) string {
	if len(d.heap) < len(s) {
		d.heap = make([]byte, max(len(s), 1<<20))
	}
	b := d.heap[:len(s):len(s)]
	d.heap = d.heap[len(s):]
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
