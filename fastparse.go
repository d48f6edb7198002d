package errkb

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// parseEntryFast is the quick way to read one well-formed entry. The
// careful path, parseEntry, decodes every entry four times over (into maps,
// then field by field, then into the Record) so that it can name each
// problem; at 100,000 records that alone takes longer than building the
// index. parseEntryFast decodes once and accepts the record only when the
// careful path would accept it too and produce the same Record; for any
// doubt (a problem, a key differing from a known field only in case, a
// duplicated known key, an escaped key) it returns ok=false and the caller
// runs parseEntry, which reports the problems exactly as before.
//
// raw must be valid JSON (the caller checked it).
func parseEntryFast(raw []byte, loc Location) (rec *Record, ok bool) {
	recRaw, version, ok := splitEnvelope(raw)
	if !ok {
		return nil, false
	}
	if !plainKnownKeys(recRaw) {
		return nil, false
	}
	rec = &Record{}
	if err := json.Unmarshal(recRaw, rec); err != nil {
		return nil, false
	}
	rec.raw = recRaw
	rec.DatasetVersion = version
	rec.Location = loc
	if len(checkRecord(rec)) > 0 || breaksLimits(rec) {
		return nil, false
	}
	return rec, true
}

// breaksLimits reports whether a record decoded on the fast path may break
// a cap or hold a link checkHostile refuses. It only has to be cheap and
// never miss: the careful path then finds and names the problem.
func breaksLimits(r *Record) bool {
	c := limitChecker{}
	walkFields(knownFields, r, &c)
	return c.broken
}

type limitChecker struct {
	reader
	broken bool
}

func (c *limitChecker) text(f *fieldInfo, p *string) {
	class := f.class()
	limit, _ := class.limit()
	// A scheme needs a colon, written as is or as an entity.
	if len(*p) > limit || class == classMarkdown && strings.ContainsAny(*p, ":&") && dangerousLink(*p) != "" {
		c.broken = true
	}
	// The links of objects (a call site's, a source's) are checked by the
	// careful path, which names the element.
	if f.name == "githubUrl" && *p != "" && checkGithubURL(*p) != "" || f.name != "githubUrl" && urlKey(f.name) && !AllowedURL(*p) {
		c.broken = true
	}
}

func (c *limitChecker) count(_ *fieldInfo, n int) int {
	if n > MaxListEntries {
		c.broken = true
	}
	return n
}

// splitEnvelope finds the record object of an envelope, or returns raw
// itself for a bare record, with the envelope's datasetVersion.
func splitEnvelope(raw []byte) (recRaw []byte, version string, ok bool) {
	var recSpan, verSpan []byte
	seen := map[string]bool{}
	ok = eachKey(raw, func(key string, value []byte) bool {
		if seen[key] {
			return false // checkKeys reports it
		}
		seen[key] = true
		switch {
		case key == "record":
			if recSpan != nil {
				return false
			}
			recSpan = value
		case key == "datasetVersion":
			if verSpan != nil {
				return false
			}
			verSpan = value
		case strings.EqualFold(key, "record") || strings.EqualFold(key, "datasetVersion"):
			return false
		}
		return true
	})
	if !ok {
		return nil, "", false
	}
	if recSpan == nil {
		return raw, "", true
	}
	if len(recSpan) == 0 || recSpan[0] != '{' {
		return nil, "", false
	}
	if verSpan != nil && !isNull(verSpan) {
		if verSpan[0] != '"' || json.Unmarshal(verSpan, &version) != nil {
			return nil, "", false
		}
	}
	return recSpan, version, true
}

// maxKnownFields bounds the field table, and each table of an array's
// elements, so that plainKnownKeys can mark the fields it has seen without
// allocating; table_test.go checks it.
const maxKnownFields = 64

// plainKnownKeys reports whether every key of the record object is a known
// field, spelled exactly and appearing once. Decoding into Record then
// means the same as the careful path's exact-name map lookups, and no
// unknown field can hide what checkHostile looks for (nesting, URLs): a
// record with fields this version does not know takes the careful path.
func plainKnownKeys(obj []byte) bool {
	var seen [maxKnownFields]bool
	return eachKey(obj, func(key string, value []byte) bool {
		i, ok := knownFieldIndex[key]
		if !ok || seen[i] {
			return false
		}
		seen[i] = true
		return plainValue(value, &knownFields[i].fieldInfo)
	})
}

// plainValue reports whether the objects in value, the value of f, hold
// only the keys of their tables, spelled exactly and appearing once, at
// any depth, so that nothing in them escapes the fast path's checks.
func plainValue(value []byte, f *fieldInfo) bool {
	switch f.kind {
	case kindObjects:
		return plainObjects(value, f.elems.fields)
	case kindObject:
		return isNull(value) || plainObject(value, f.elems.fields)
	}
	return true
}

// plainObjects reports whether every entry of an array of objects is null
// or a plain object of the elements' fields (plainObject).
func plainObjects(arr []byte, fields []fieldInfo) bool {
	if isNull(arr) {
		return true
	}
	return eachElem(arr, func(elem []byte) bool {
		return isNull(elem) || plainObject(elem, fields)
	})
}

// plainObject reports whether the object obj has only keys of fields,
// each once, whose values are plain in turn.
func plainObject(obj []byte, fields []fieldInfo) bool {
	var seen uint64 // table_test.go checks that an object has at most 64
	return eachKey(obj, func(key string, value []byte) bool {
		i := slices.IndexFunc(fields, func(f fieldInfo) bool { return f.name == key })
		if i < 0 || seen&(1<<i) != 0 {
			return false
		}
		seen |= 1 << i
		return plainValue(value, &fields[i])
	})
}

// eachKey calls fn with every key and raw value of the JSON object obj,
// which must be valid JSON. It returns false when obj is not an object, a
// key holds an escape, or fn returns false.
func eachKey(obj []byte, fn func(key string, value []byte) bool) bool {
	return eachMember(obj, '{', func(key, value []byte) bool {
		return bytes.IndexByte(key, '\\') < 0 && fn(string(key), value)
	})
}

// eachElem calls fn with every element of the JSON array arr, which must
// be valid JSON. It returns false when arr is not an array or fn returns
// false.
func eachElem(arr []byte, fn func(elem []byte) bool) bool {
	return eachMember(arr, '[', func(_, elem []byte) bool { return fn(elem) })
}

// eachMember walks the object (open is '{') or array ('[') b, which must
// be valid JSON, calling fn with each member's key (nil in an array) and
// raw value. It returns false when b is not of that kind or fn returns
// false.
func eachMember(b []byte, open byte, fn func(key, value []byte) bool) bool {
	closing := byte('}')
	if open == '[' {
		closing = ']'
	}
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != open {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == closing {
		return true
	}
	for i < len(b) {
		var key []byte
		if open == '{' {
			if b[i] != '"' {
				return false
			}
			end := skipString(b, i)
			if end < 0 {
				return false
			}
			key = b[i+1 : end-1]
			i = skipSpace(b, end)
			if i >= len(b) || b[i] != ':' {
				return false
			}
			i = skipSpace(b, i+1)
		}
		stop := skipValue(b, i)
		if stop < 0 || !fn(key, b[i:stop]) {
			return false
		}
		i = skipSpace(b, stop)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		return i < len(b) && b[i] == closing
	}
	return false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the offset just past the JSON value starting at i in
// valid JSON b, or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				if i < 0 {
					return -1
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	default: // number, true, false, null
		for i < len(b) {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				return i
			}
			i++
		}
		return i
	}
}

// skipString returns the offset just past the string starting at b[i].
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}
