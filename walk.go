package errkb

// Every pass over a record's values (the caps of the fast path, the text a
// storage engine keeps, the shape it saves and sets back) is a visitor
// that walkFields leads through the field table, in the table's order,
// into the elements of arrays of objects. A pass never names a field, so
// a field added to the table is visited by all of them.

// walkFields leads v through the values of p, an object read through fields.
func walkFields[T any](fields []field[T], p *T, v visitor) {
	for i := range fields {
		f := &fields[i]
		info := &f.fieldInfo
		switch {
		case f.str != nil:
			v.text(info, f.str(p))
		case f.optStr != nil:
			pp := f.optStr(p)
			if present(v, info, pp) {
				v.text(info, *pp)
			}
		case f.num != nil:
			v.num(info, f.num(p))
		case f.optNum != nil:
			pp := f.optNum(p)
			if present(v, info, pp) {
				v.num(info, *pp)
			}
		case f.strs != nil:
			l := f.strs(p)
			if n := v.count(info, len(*l)); n != len(*l) {
				*l = makeSlice[string](v.arena(), nil, n)
			}
			for k := range *l {
				v.text(info, &(*l)[k])
			}
		case f.boolean != nil:
			// A flag's shape is its value: a pass setting values sets it
			// from whether it is to be there.
			b := f.boolean(p)
			*b = v.present(info, *b)
		case f.objects != nil:
			f.objects.walk(p, info, v)
		case f.object != nil:
			f.object.walk(p, info, v)
		}
	}
}

// present asks v whether the nullable value *pp is to be there, and
// allocates or drops it to match.
func present[V any](v visitor, f *fieldInfo, pp **V) bool {
	there := v.present(f, *pp != nil)
	switch {
	case there && *pp == nil:
		*pp = newValue[V](v.arena())
	case !there && *pp != nil: // never written by passes that only read
		*pp = nil
	}
	return there
}

func (o *objectsOf[T, E]) walk(p *T, f *fieldInfo, v visitor) {
	l := o.at(p)
	if n := v.count(f, len(*l)); n != len(*l) {
		*l = makeSlice[E](v.arena(), o, n)
	}
	for k := range *l {
		walkFields(o.fields, &(*l)[k], v)
	}
}

func (o *objectOf[T, E]) walk(p *T, f *fieldInfo, v visitor) {
	pp := o.at(p)
	there := v.present(f, *pp != nil)
	switch {
	case !there:
		*pp = nil // never written by passes that only read
		return
	case *pp == nil:
		*pp = new(E)
	}
	walkFields(o.fields, *pp, v)
}

// reader is a visitor that changes nothing; passes that only read embed it.
type reader struct{}

func (reader) text(*fieldInfo, *string)              {}
func (reader) num(*fieldInfo, *int)                  {}
func (reader) present(_ *fieldInfo, there bool) bool { return there }
func (reader) count(_ *fieldInfo, n int) int         { return n }
func (reader) arena() *Arena                         { return nil }

// makeSlice returns n zero entries (nil for none), from the block a keeps
// under key (nil for lists of strings), or a new slice without an arena.
func makeSlice[E any](a *Arena, key any, n int) []E {
	if n == 0 {
		return nil
	}
	if a == nil {
		return make([]E, n)
	}
	var block *[]E
	if key == nil {
		block = any(&a.lists).(*[]E)
	} else {
		if a.objects == nil {
			a.objects = make(map[any]any)
		}
		b, ok := a.objects[key].(*[]E)
		if !ok {
			b = new([]E)
			a.objects[key] = b
		}
		block = b
	}
	if len(*block) < n {
		size := 4096 // strings; objects are larger and fewer
		if key != nil {
			size = 1024
		}
		*block = make([]E, max(n, size))
	}
	l := (*block)[:n:n]
	*block = (*block)[n:]
	return l
}

// newValue returns a zero *string or *int for a nullable field.
func newValue[V any](a *Arena) *V {
	if a == nil {
		return new(V)
	}
	var block *[]V
	switch b := any(&a.texts).(type) {
	case *[]V:
		block = b
	default:
		block = any(&a.ints).(*[]V)
	}
	if len(*block) == 0 {
		*block = make([]V, 1024)
	}
	p := &(*block)[0]
	*block = (*block)[1:]
	return p
}
