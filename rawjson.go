package errkb

// A storage engine may keep a record's raw JSON with the values of some
// string fields cut out ("holes"): code and Markdown values are then held
// once, decoded, instead of twice (decoded for pages and escaped in the raw
// JSON for the API). RawJSON splices the escaped values back. A hole is
// cut only where AppendJSONString reproduces the cut bytes exactly, so the
// API serves the record byte for byte as it was given.

// RawHole is one cut: the escaped value of TextFields(r)[Field] goes at
// byte At of the kept bytes (between the value's quotes).
type RawHole struct {
	At, Field uint32
}

// RawJSON is the record object exactly as it appeared in its file.
func (r *Record) RawJSON() []byte {
	if len(r.holes) == 0 {
		return r.Raw
	}
	fields := TextFields(r)
	n := len(r.Raw)
	for _, h := range r.holes {
		if h.At > uint32(len(r.Raw)) || h.Field >= uint32(len(fields)) {
			return r.Raw // not as SetRawWithHoles promised; never cut so
		}
		n += len(*fields[h.Field]) + 8
	}
	out := make([]byte, 0, n)
	last := uint32(0)
	for _, h := range r.holes {
		out = append(out, r.Raw[last:h.At]...)
		out = AppendJSONString(out, *fields[h.Field])
		last = h.At
	}
	return append(out, r.Raw[last:]...)
}

// SetRawWithHoles sets the record's raw JSON as kept bytes and the holes
// cut out of them. The caller has checked that every hole is in range, in
// order (At non-decreasing, at most len(kept)) and names one of
// TextFields(r); RawJSON then returns the original bytes.
func (r *Record) SetRawWithHoles(kept []byte, holes []RawHole) {
	r.Raw = kept
	r.holes = holes
}

// RawHoles are the holes set by SetRawWithHoles.
func (r *Record) RawHoles() []RawHole { return r.holes }

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
