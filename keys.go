package errkb

import (
	"bytes"
	"encoding/json"
	"strings"
)

// checkKeys reports keys of a JSON object that appear twice, and keys that
// differ from a known field only in letter case. Go's decoder keeps the
// last of two equal keys and matches keys without case, while a reader of
// the file, or a JavaScript client of the API's raw record, may see the
// other value: the record would say one thing to one and another to the
// other. known says which names count as fields; the record's own keys are
// checked against knownFields, an envelope's against its two keys.
//
// In an envelope (record is true), the record object's keys are checked
// too. obj must be valid JSON; base is the location of obj's first byte.
func checkKeys(obj []byte, base Location, id string, known func(key string) (string, bool), record bool) Problems {
	var probs Problems
	firstLine := map[string]int{}
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		off := dec.InputOffset()
		t, err := dec.Token()
		if err != nil {
			return probs
		}
		key, _ := t.(string)
		loc := base
		if base.Line > 0 {
			// The token's offset is just after the previous value; the key
			// starts at the next quote.
			rest := obj[off:]
			if q := bytes.IndexByte(rest, '"'); q >= 0 {
				off += int64(q)
			}
			loc.Line = base.Line + bytes.Count(obj[:off], []byte("\n"))
		}
		if first, ok := firstLine[key]; ok {
			probs = append(probs, Problem{Location: loc, Record: id, Field: key,
				Message: "appears twice (first on line " + itoa(first) + "); a key may appear once, or readers of the file and errkb see different values"})
		} else {
			firstLine[key] = loc.Line
		}
		if name, ok := known(key); ok && name != key {
			probs = append(probs, Problem{Location: loc, Record: id, Field: key,
				Message: "differs from the field " + quote(name) + " only in letter case; spell it " + quote(name) + " or remove it"})
		}
		valueOff := dec.InputOffset()
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return probs
		}
		if record && key == "record" && len(value) > 0 && value[0] == '{' {
			at := valueOff + int64(bytes.IndexByte(obj[valueOff:], '{'))
			inner := base
			if base.Line > 0 {
				inner.Line = base.Line + bytes.Count(obj[:at], []byte("\n"))
			}
			probs = append(probs, checkKeys(value, inner, id, knownFieldFold, false)...)
		}
	}
	return probs
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
