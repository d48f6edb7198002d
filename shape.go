package errkb

// A record's shape is what its known fields hold besides text: each
// integer, whether each nullable field is there, and how many entries
// each list and array of objects has. With its text (AppendTexts), in the
// same order, the shape is the whole of the record's known fields, so a
// storage engine can save the two and set a record back from them
// without naming a field: a field added to the table is saved with them.

// Text is one string a record holds of its known fields, as AppendTexts
// lists them.
type Text struct {
	P *string
	// Bulk is set for prose, code and links: values that may be long and
	// that pages read, but search does not.
	Bulk bool
	// Shared is set for values that many records hold alike (repo,
	// severity, tags): worth holding once.
	Shared bool
}

// AppendTexts appends every string the record holds of its known fields to
// ts, in the table's order: each string field that is present, each entry
// of a list field, and each string of each element of an array of objects.
// Two records with the same shape (AppendShape) list the same fields.
func AppendTexts(ts []Text, r *Record) []Text { return appendTexts(ts, knownFields, r) }

func appendTexts[T any](ts []Text, fields []field[T], p *T) []Text {
	c := textCollector{ts: ts}
	walkFields(fields, p, &c)
	return c.ts
}

type textCollector struct {
	reader
	ts []Text
}

func (c *textCollector) text(f *fieldInfo, p *string) {
	c.ts = append(c.ts, Text{P: p, Bulk: f.has(bulk), Shared: f.has(shared)})
}

// AppendShape appends r's shape to dst, walking the table: an integer's
// value, 1 or 0 for a nullable field there or not, and the length of a
// list or an array of objects before its entries.
func AppendShape(dst []int64, r *Record) []int64 { return appendShape(dst, knownFields, r) }

func appendShape[T any](dst []int64, fields []field[T], p *T) []int64 {
	w := shapeWriter{dst: dst}
	walkFields(fields, p, &w)
	return w.dst
}

type shapeWriter struct {
	reader
	dst []int64
}

func (w *shapeWriter) num(_ *fieldInfo, p *int) { w.dst = append(w.dst, int64(*p)) }

func (w *shapeWriter) present(_ *fieldInfo, there bool) bool {
	v := int64(0)
	if there {
		v = 1
	}
	w.dst = append(w.dst, v)
	return there
}

func (w *shapeWriter) count(_ *fieldInfo, n int) int {
	w.dst = append(w.dst, int64(n))
	return n
}

// SetShape sets the shape of r, a zero Record, from next, which yields
// what AppendShape appended, in order, and appends r's texts to ts as
// AppendTexts would, for the caller to set: the two in one walk. It
// reports false when a value cannot be in a valid record's shape (a
// length over MaxListEntries, a presence other than 0 or 1), as from a
// damaged file; r is then set in part and should be dropped.
func (a *Arena) SetShape(r *Record, next func() int64, ts []Text) ([]Text, bool) {
	return setShape(a, knownFields, r, next, ts)
}

func setShape[T any](a *Arena, fields []field[T], p *T, next func() int64, ts []Text) ([]Text, bool) {
	s, _ := a.setter.(*shapeSetter)
	if s == nil {
		s = new(shapeSetter)
		a.setter = s
	}
	*s = shapeSetter{textCollector: textCollector{ts: ts}, next: next, a: a, ok: true}
	walkFields(fields, p, s)
	ts, ok := s.ts, s.ok
	*s = shapeSetter{}
	return ts, ok
}

// shapeSetter sets a shape and, as it goes, collects the texts.
type shapeSetter struct {
	textCollector
	next func() int64
	a    *Arena
	ok   bool
}

func (s *shapeSetter) num(_ *fieldInfo, p *int) {
	if s.ok {
		*p = int(s.next())
	}
}

func (s *shapeSetter) present(*fieldInfo, bool) bool {
	if !s.ok {
		return false
	}
	v := s.next()
	s.ok = v == 0 || v == 1
	return s.ok && v == 1
}

func (s *shapeSetter) count(_ *fieldInfo, _ int) int {
	if !s.ok {
		return 0
	}
	n := s.next()
	s.ok = n >= 0 && n <= MaxListEntries
	if !s.ok {
		return 0
	}
	return int(n)
}

func (s *shapeSetter) arena() *Arena { return s.a }
