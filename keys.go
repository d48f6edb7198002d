package errkb

import (
	"bytes"
	"encoding/json"
	"strings"
)

// checkKeys reports keys of a JSON object that appear twice, at any depth,
// and keys that differ from a known field only in letter case. Go's
// decoder keeps the last of two equal keys and matches keys without case,
// while a reader of the file, or a JavaScript client of the API's raw
// record, may see the other value: the record would say one thing to one
// and another to the other. known says which names count as fields; the
// record's own keys are checked against knownFields, an envelope's against
// its two keys.
//
// In an envelope (record is true), the record object's keys are checked
// too. obj must be valid JSON; base is the location of obj's first byte.
func checkKeys(obj []byte, base Location, id string, known func(key string) (string, bool), record bool) Problems {
	k := keyChecker{id: id}
	k.object(obj, base, "", known, record, 0)
	return k.probs
}

type keyChecker struct {
	id    string
	probs Problems
}

// lineOf is the line of obj[off:] when obj starts at base.
func lineOf(obj []byte, off int64, base Location) Location {
	if base.Line > 0 {
		base.Line += bytes.Count(obj[:off], []byte("\n"))
	}
	return base
}

// object checks the keys of the object obj, named path ("" at the top).
func (k *keyChecker) object(obj []byte, base Location, path string, known func(string) (string, bool), record bool, depth int) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return
	}
	firstLine := map[string]int{}
	for dec.More() {
		off := dec.InputOffset()
		t, err := dec.Token()
		if err != nil {
			return
		}
		key, _ := t.(string)
		// The offset is just after the previous value; the key starts at
		// the next quote.
		if q := bytes.IndexByte(obj[off:], '"'); q >= 0 {
			off += int64(q)
		}
		loc := lineOf(obj, off, base)
		field := key
		if path != "" {
			field = path + "." + key
		}
		if first, ok := firstLine[key]; ok {
			k.probs = append(k.probs, Problem{Location: loc, Record: k.id, Field: field,
				Message: "appears twice (first on line " + itoa(first) + "); a key may appear once, or readers of the file and errkb see different values"})
		} else {
			firstLine[key] = loc.Line
		}
		if known != nil {
			if name, ok := known(key); ok && name != key {
				k.probs = append(k.probs, Problem{Location: loc, Record: k.id, Field: field,
					Message: "differs from the field " + quote(name) + " only in letter case; spell it " + quote(name) + " or remove it"})
			}
		}
		valueOff := dec.InputOffset()
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return
		}
		at := valueOff + int64(bytes.IndexAny(obj[valueOff:], "{[\"-0123456789tfn"))
		switch {
		case record && key == "record":
			k.object(value, lineOf(obj, at, base), "", knownFieldFold, false, depth+1)
		case !record:
			// An envelope's other keys are neither read nor served.
			k.nested(value, lineOf(obj, at, base), field, depth+1)
		}
	}
}

// nested checks the objects inside value, named path. Deeper than
// MaxJSONDepth checkHostile refuses the value anyway.
func (k *keyChecker) nested(value []byte, base Location, path string, depth int) {
	if len(value) == 0 || depth > MaxJSONDepth {
		return
	}
	switch value[0] {
	case '{':
		k.object(value, base, path, nil, false, depth)
	case '[':
		dec := json.NewDecoder(bytes.NewReader(value))
		if _, err := dec.Token(); err != nil {
			return
		}
		for i := 0; dec.More(); i++ {
			off := dec.InputOffset()
			var elem json.RawMessage
			if err := dec.Decode(&elem); err != nil {
				return
			}
			at := off + int64(bytes.IndexAny(value[off:], "{[\"-0123456789tfn"))
			k.nested(elem, lineOf(value, at, base), path+"["+itoa(i)+"]", depth+1)
		}
	}
}

// knownFieldFold returns the known field whose name equals key without
// regard to case.
func knownFieldFold(key string) (string, bool) {
	if isKnown(key) {
		return key, true
	}
	for _, f := range knownFields {
		if strings.EqualFold(f.name, key) {
			return f.name, true
		}
	}
	return "", false
}

// bareKeyFold is knownFieldFold for a record given without an envelope,
// where a key like "Record" is most likely a misspelt envelope.
func bareKeyFold(key string) (string, bool) {
	if name, ok := knownFieldFold(key); ok {
		return name, ok
	}
	return envelopeKeyFold(key)
}

// envelopeKeyFold is knownFieldFold for an envelope's keys.
func envelopeKeyFold(key string) (string, bool) {
	for _, name := range []string{"record", "datasetVersion"} {
		if strings.EqualFold(name, key) {
			return name, true
		}
	}
	return "", false
}
