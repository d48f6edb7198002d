package errkb

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"unicode/utf8"
)

// checkHostile checks what a hostile or broken dataset could use against
// the server: invalid UTF-8, deep nesting, oversize fields and lists, and
// links with a scheme that runs code. Each problem names its field.
func checkHostile(fields map[string]json.RawMessage, loc Location) Problems {
	id := stringField(fields, "id")
	var probs Problems
	add := func(field, msg string) {
		probs = append(probs, Problem{Location: loc, Record: id, Field: field, Message: msg})
	}
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		raw := fields[name]
		if !utf8.Valid(raw) {
			add(name, "holds invalid UTF-8")
			continue
		}
		if d := jsonDepth(raw); d > MaxJSONDepth {
			add(name, fmt.Sprintf("nests %d levels deep; at most %d", d, MaxJSONDepth))
			continue
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			continue // checkFields or the syntax check reports it
		}
		checkSizes(name, v, add)
		checkURLs(name, name, v, add)
	}
	return probs
}

// checkSizes applies the field caps to one known field.
func checkSizes(name string, v any, add func(field, msg string)) {
	if i, ok := knownFieldIndex[name]; ok {
		checkValueSizes(name, &knownFields[i].fieldInfo, v, add)
	}
}

// checkValueSizes applies f's caps to its value v, named path, and those
// of its objects' fields to theirs, at any depth. A string under a key the
// table does not list is held to the cap of plain text.
func checkValueSizes(path string, f *fieldInfo, v any, add func(field, msg string)) {
	limit, what := f.class().limit()
	switch v := v.(type) {
	case string:
		if len(v) > limit {
			add(path, fmt.Sprintf("%s of %d bytes; at most %d", what, len(v), limit))
		}
	case []any:
		if len(v) > MaxListEntries {
			add(path, fmt.Sprintf("has %d entries; at most %d", len(v), MaxListEntries))
		}
		for i, e := range v {
			checkValueSizes(fmt.Sprintf("%s[%d]", path, i), f, e, add)
		}
	case map[string]any: // an object, or an element of an array of objects
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if ef, ok := f.elems.field(k); ok {
				checkValueSizes(path+"."+k, ef, v[k], add)
				continue
			}
			limit, what := elementClass(f, k).limit()
			if s, ok := v[k].(string); ok && len(s) > limit {
				add(path+"."+k, fmt.Sprintf("%s of %d bytes; at most %d", what, len(s), limit))
			}
		}
	}
}

// elementClass is the class of the key k of an object of f: its field's,
// or text for a key the table does not list.
func elementClass(f *fieldInfo, k string) textClass {
	if e, ok := f.elems.field(k); ok {
		return e.class()
	}
	return classText
}

// jsonDepth is the deepest nesting of arrays and objects in a valid JSON
// value, counted without decoding it.
func jsonDepth(raw []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// checkURLs walks a field's value and reports links whose scheme could run
// code: any string under a URL-like key, and the link destinations of
// Markdown fields.
func checkURLs(path, key string, v any, add func(field, msg string)) {
	switch v := v.(type) {
	case string:
		// githubUrl is held to more: an https://github.com/ URL. The
		// record's own is checkRecord's; those of its objects (a call
		// site, a condition's guard) are checked here, at any depth.
		switch {
		case key == "githubUrl":
			if path != key && v != "" {
				if msg := checkGithubURL(v); msg != "" {
					add(path, msg)
				}
			}
		case urlKey(key) && !AllowedURL(v):
			add(path, "must be an http, https or mailto URL, got "+quote(v))
		}
		if isMarkdown(key) {
			if m := dangerousLink(v); m != "" {
				add(path, "links to "+quote(m)+"; a link in Markdown must be relative or use http, https or mailto, or pages show it as plain text")
			}
		}
	case []any:
		for i, e := range v {
			checkURLs(fmt.Sprintf("%s[%d]", path, i), key, e, add)
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			checkURLs(path+"."+k, k, v[k], add)
		}
	}
}

func isMarkdown(name string) bool {
	i, ok := knownFieldIndex[name]
	return ok && knownFields[i].class() == classMarkdown
}
