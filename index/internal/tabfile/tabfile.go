package tabfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"unsafe"
)

// Layout, all little-endian: the magic, the version of the tables the
// file holds (the writer's to give, see Writer.Finish), the number of
// sections, then per section its name (length-prefixed) and its offset
// and length in bytes; then the sections, each at an offset that is a
// multiple of 8.
const magic = "errkb-tables\x00\x00\x00\x00"

// Writer lays out named sections in one byte slice.
type Writer struct {
	names []string
	data  [][]byte
}

// Bytes adds section name holding b; Uint32s, Int32s and Float64s add one
// holding an array.
func (w *Writer) Bytes(name string, b []byte) {
	w.names = append(w.names, name)
	w.data = append(w.data, b)
}

func (w *Writer) Uint32s(name string, v []uint32) { w.Bytes(name, AsBytes(v)) }
func (w *Writer) Int32s(name string, v []int32)   { w.Bytes(name, AsBytes(v)) }
func (w *Writer) Float64s(name string, v []float64) {
	w.Bytes(name, AsBytes(v))
}

// strs writes a list of strings as name.off (n+1 offsets) and name.str.
func (w *Writer) Strings(name string, ss []string) {
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
	w.Uint32s(name+".off", off)
	w.Bytes(name+".str", data)
}

// Postings writes keys (sorted) and, for each, the ids of lists[i];
// Reader.Postings reads them back.
func (w *Writer) Postings(name string, keys []string, lists [][]int32) {
	w.Strings(name+".keys", keys)
	off := make([]uint32, 1, len(lists)+1)
	var ids []int32
	for _, l := range lists {
		ids = append(ids, l...)
		off = append(off, uint32(len(ids)))
	}
	w.Uint32s(name+".poff", off)
	w.Int32s(name+".ids", ids)
}

// Finish returns the file's bytes, marked with version: Read refuses a
// file of another version.
func (w *Writer) Finish(version uint32) []byte {
	head := len(magic) + 8
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
	out = append(out, magic...)
	out = binary.LittleEndian.AppendUint32(out, version)
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

// AsBytes is v's memory as bytes, not a copy. The file is little-endian, like
// every platform errkb is built for (see isLittleEndian).
func AsBytes[T uint32 | int32 | float64](v []T) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*int(unsafe.Sizeof(v[0])))
}

var isLittleEndian = func() bool { x := uint16(1); return *(*byte)(unsafe.Pointer(&x)) == 1 }()

// Reader reads a tables file laid out by Writer. The slices it hands
// out point into data, which must stay unchanged while they are used,
// and be 8-byte aligned (a mapping or a Go allocation is). A section that
// is missing or damaged records an error instead of failing at once, so
// that a reader of many sections checks Err once at the end.
type Reader struct {
	m   map[string][]byte
	err error
}

// Read reads the header of data, a file of the given version.
func Read(data []byte, version uint32) (*Reader, error) {
	if !isLittleEndian {
		return nil, errors.New("lookup tables are little-endian; this machine is not")
	}
	if len(data) < len(magic)+8 || string(data[:len(magic)]) != magic {
		return nil, errors.New("not a lookup tables file")
	}
	if len(data) > 0 && uintptr(unsafe.Pointer(&data[0]))%8 != 0 {
		return nil, errors.New("lookup tables not aligned")
	}
	p := len(magic)
	if v := binary.LittleEndian.Uint32(data[p:]); v != version {
		return nil, fmt.Errorf("lookup tables of format %d, want %d", v, version)
	}
	n := int(binary.LittleEndian.Uint32(data[p+4:]))
	p += 8
	if n > (len(data)-p)/20 { // each entry takes 20 bytes or more
		return nil, errors.New("lookup tables: truncated header")
	}
	s := &Reader{m: make(map[string][]byte, n)}
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

// Err is the first error met reading the sections, if any.
func (s *Reader) Err() error { return s.err }

// Failf records an error a reader of the sections' contents found, unless
// one is recorded already.
func (s *Reader) Failf(format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf(format, args...)
	}
}

// Bytes returns the named section; a missing one records an error.
func (s *Reader) Bytes(name string) []byte {
	b, ok := s.m[name]
	if !ok && s.err == nil {
		s.err = fmt.Errorf("lookup tables: no section %s", name)
	}
	return b
}

// Slice returns the named section as an array of T.
func Slice[T uint32 | int32 | float64](s *Reader, name string) []T {
	b := s.Bytes(name)
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

// Strings is a list of strings in one block of bytes.
type Strings struct {
	off  []uint32
	data []byte
}

// Strings returns the list of strings Writer.Strings wrote under name.
func (s *Reader) Strings(name string) Strings {
	l := Strings{off: Slice[uint32](s, name+".off"), data: s.Bytes(name + ".str")}
	if s.err == nil && !l.valid() {
		s.err = fmt.Errorf("lookup tables: string list %s is damaged", name)
	}
	return l
}

// valid checks the offsets once, so At never slices out of range.
func (l Strings) valid() bool {
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

// Len is the number of strings.
func (l Strings) Len() int { return max(len(l.off)-1, 0) }

// At is the i-th string. It points into the tables' memory, so it is
// copied before being kept past the index's life.
func (l Strings) At(i int) string {
	b := l.data[l.off[i]:l.off[i+1]]
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Postings maps sorted keys to lists of record (or pattern) numbers:
// key i's list is IDs[Off[i]:Off[i+1]].
type Postings struct {
	Keys Strings
	Off  []uint32
	IDs  []int32
}

// Postings returns the postings Writer.Postings wrote under name.
func (s *Reader) Postings(name string) Postings {
	p := Postings{Keys: s.Strings(name + ".keys"), Off: Slice[uint32](s, name+".poff"), IDs: Slice[int32](s, name+".ids")}
	if s.err == nil && !ValidOffsets(p.Off, p.Keys.Len(), len(p.IDs)) {
		s.err = fmt.Errorf("lookup tables: postings %s are damaged", name)
	}
	return p
}

// ValidOffsets checks that off holds n+1 ascending offsets into total
// elements.
func ValidOffsets(off []uint32, n, total int) bool {
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

// Get returns k's list, nil when k is not a key. The slice is read-only.
func (p Postings) Get(k string) []int32 {
	i, ok := p.Keys.Search(k)
	if !ok {
		return nil
	}
	return p.IDs[p.Off[i]:p.Off[i+1]:p.Off[i+1]]
}

// Search returns the position of k in a sorted list.
func (l Strings) Search(k string) (int, bool) {
	lo, hi := 0, l.Len()
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if c := strings.Compare(l.At(m), k); c < 0 {
			lo = m + 1
		} else if c == 0 {
			return m, true
		} else {
			hi = m
		}
	}
	return lo, false
}

// AllBelow reports whether every number of v is a record (or pattern)
// number of n: the reader of a damaged file must not index out of range.
func AllBelow(v []int32, n int) bool {
	for _, x := range v {
		if x < 0 || int(x) >= n {
			return false
		}
	}
	return true
}
