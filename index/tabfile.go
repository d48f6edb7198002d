package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"unsafe"
)

// The lookup tables are kept in one file of named sections, each a flat
// array (uint32, int32, float64 or bytes), so that opening them is a
// matter of pointing slices into a read-only mapping of the file: no
// decoding, no per-record work, and the kernel pages in only what
// queries touch. The same bytes, built in memory, serve an index that is
// not persisted, so there is one representation to read.
//
// Layout, all little-endian: the magic, the format version, the number
// of sections, then per section its name (length-prefixed) and its
// offset and length in bytes; then the sections, each at an offset that
// is a multiple of 8.

const (
	tablesMagic   = "errkb-tables\x00\x00\x00\x00"
	tablesVersion = 2
)

// sectionWriter lays out sections in one byte slice.
type sectionWriter struct {
	names []string
	data  [][]byte
}

func (w *sectionWriter) bytes(name string, b []byte) {
	w.names = append(w.names, name)
	w.data = append(w.data, b)
}

func (w *sectionWriter) u32s(name string, v []uint32) { w.bytes(name, sliceBytes(v)) }
func (w *sectionWriter) i32s(name string, v []int32)  { w.bytes(name, sliceBytes(v)) }
func (w *sectionWriter) f64s(name string, v []float64) {
	w.bytes(name, sliceBytes(v))
}

// strs writes a list of strings as name.off (n+1 offsets) and name.str.
func (w *sectionWriter) strs(name string, ss []string) {
	off := make([]uint32, 1, len(ss)+1)
	n := 0
	for _, s := range ss {
		n += len(s)
	}
	data := make([]byte, 0, n)
	for _, s := range ss {
		data = append(data, s...)
		off = append(off, uint32(len(data)))
	}
	w.u32s(name+".off", off)
	w.bytes(name+".str", data)
}

// postings writes keys (sorted) and, for each, the ids of lists[i].
func (w *sectionWriter) postings(name string, keys []string, lists [][]int32) {
	w.strs(name+".keys", keys)
	off := make([]uint32, 1, len(lists)+1)
	var ids []int32
	for _, l := range lists {
		ids = append(ids, l...)
		off = append(off, uint32(len(ids)))
	}
	w.u32s(name+".poff", off)
	w.i32s(name+".ids", ids)
}

// finish returns the file's bytes.
func (w *sectionWriter) finish() []byte {
	head := len(tablesMagic) + 8
	for _, n := range w.names {
		head += 4 + len(n) + 16
	}
	pos := align8(head)
	offs := make([]int, len(w.data))
	for i, d := range w.data {
		offs[i] = pos
		pos = align8(pos + len(d))
	}
	out := make([]byte, 0, pos)
	out = append(out, tablesMagic...)
	out = binary.LittleEndian.AppendUint32(out, tablesVersion)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(w.names)))
	for i, n := range w.names {
		out = binary.LittleEndian.AppendUint32(out, uint32(len(n)))
		out = append(out, n...)
		out = binary.LittleEndian.AppendUint64(out, uint64(offs[i]))
		out = binary.LittleEndian.AppendUint64(out, uint64(len(w.data[i])))
	}
	for i, d := range w.data {
		out = append(out, make([]byte, offs[i]-len(out))...)
		out = append(out, d...)
	}
	return append(out, make([]byte, pos-len(out))...)
}

func align8(n int) int { return (n + 7) &^ 7 }

// sliceBytes is v's memory as bytes. The file is little-endian, like
// every platform errkb is built for (see isLittleEndian).
func sliceBytes[T uint32 | int32 | float64](v []T) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*int(unsafe.Sizeof(v[0])))
}

var isLittleEndian = func() bool { x := uint16(1); return *(*byte)(unsafe.Pointer(&x)) == 1 }()

// sections reads a tables file laid out by sectionWriter. The slices it
// hands out point into data, which must stay unchanged while they are
// used, and be 8-byte aligned (a mapping or a Go allocation is).
type sections struct {
	m   map[string][]byte
	err error
}

func readSections(data []byte) (*sections, error) {
	if !isLittleEndian {
		return nil, errors.New("lookup tables are little-endian; this machine is not")
	}
	if len(data) < len(tablesMagic)+8 || string(data[:len(tablesMagic)]) != tablesMagic {
		return nil, errors.New("not a lookup tables file")
	}
	if len(data) > 0 && uintptr(unsafe.Pointer(&data[0]))%8 != 0 {
		return nil, errors.New("lookup tables not aligned")
	}
	p := len(tablesMagic)
	if v := binary.LittleEndian.Uint32(data[p:]); v != tablesVersion {
		return nil, fmt.Errorf("lookup tables of format %d, want %d", v, tablesVersion)
	}
	n := int(binary.LittleEndian.Uint32(data[p+4:]))
	p += 8
	if n > (len(data)-p)/20 { // each entry takes 20 bytes or more
		return nil, errors.New("lookup tables: truncated header")
	}
	s := &sections{m: make(map[string][]byte, n)}
	for range n {
		if p+4 > len(data) {
			return nil, errors.New("lookup tables: truncated header")
		}
		l := int(binary.LittleEndian.Uint32(data[p:]))
		if p+4+l+16 > len(data) {
			return nil, errors.New("lookup tables: truncated header")
		}
		name := string(data[p+4 : p+4+l])
		p += 4 + l
		off, size := binary.LittleEndian.Uint64(data[p:]), binary.LittleEndian.Uint64(data[p+8:])
		p += 16
		if off%8 != 0 || off > uint64(len(data)) || size > uint64(len(data))-off {
			return nil, fmt.Errorf("lookup tables: section %s out of range", name)
		}
		s.m[name] = data[off : off+size : off+size]
	}
	return s, nil
}

// section returns the named section; a missing one sets s.err, so a
// reader checks once at the end.
func (s *sections) section(name string) []byte {
	b, ok := s.m[name]
	if !ok && s.err == nil {
		s.err = fmt.Errorf("lookup tables: no section %s", name)
	}
	return b
}

func sectionSlice[T uint32 | int32 | float64](s *sections, name string) []T {
	b := s.section(name)
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(b)%size != 0 {
		if s.err == nil {
			s.err = fmt.Errorf("lookup tables: section %s has a partial element", name)
		}
		return nil
	}
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/size)
}

// strList is a list of strings in one block of bytes.
type strList struct {
	off  []uint32
	data []byte
}

func (s *sections) strList(name string) strList {
	l := strList{off: sectionSlice[uint32](s, name+".off"), data: s.section(name + ".str")}
	if s.err == nil && !l.valid() {
		s.err = fmt.Errorf("lookup tables: string list %s is damaged", name)
	}
	return l
}

// valid checks the offsets once, so at never slices out of range.
func (l strList) valid() bool {
	if len(l.off) == 0 || l.off[0] != 0 || int(l.off[len(l.off)-1]) != len(l.data) {
		return false
	}
	for i := 1; i < len(l.off); i++ {
		if l.off[i] < l.off[i-1] {
			return false
		}
	}
	return true
}

func (l strList) len() int { return max(len(l.off)-1, 0) }

// at is the i-th string. It points into the tables' memory, so it is
// copied before being kept past the index's life.
func (l strList) at(i int) string {
	b := l.data[l.off[i]:l.off[i+1]]
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// postingList maps sorted keys to lists of record (or matcher) numbers.
type postingList struct {
	keys strList
	off  []uint32
	ids  []int32
}

func (s *sections) postings(name string) postingList {
	p := postingList{keys: s.strList(name + ".keys"), off: sectionSlice[uint32](s, name+".poff"), ids: sectionSlice[int32](s, name+".ids")}
	if s.err == nil && !validOffsets(p.off, p.keys.len(), len(p.ids)) {
		s.err = fmt.Errorf("lookup tables: postings %s are damaged", name)
	}
	return p
}

// validOffsets checks that off holds n+1 ascending offsets into total
// elements.
func validOffsets(off []uint32, n, total int) bool {
	if len(off) != n+1 || off[0] != 0 || int(off[n]) != total {
		return false
	}
	for i := 1; i < len(off); i++ {
		if off[i] < off[i-1] {
			return false
		}
	}
	return true
}

// get returns k's list, nil when k is not a key. The slice is read-only.
func (p postingList) get(k string) []int32 {
	i, ok := p.keys.search(k)
	if !ok {
		return nil
	}
	return p.ids[p.off[i]:p.off[i+1]:p.off[i+1]]
}

// search returns the position of k in a sorted list.
func (l strList) search(k string) (int, bool) {
	lo, hi := 0, l.len()
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if c := strings.Compare(l.at(m), k); c < 0 {
			lo = m + 1
		} else if c == 0 {
			return m, true
		} else {
			hi = m
		}
	}
	return lo, false
}
