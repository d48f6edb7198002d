package errkb

import (
	"bytes"
	"encoding/json"
	"strings"
)

// The types of the field table (fields.go): what a row says of a field,
// the constructors that make a row for each Go type a field may have, the
// description of an array of objects, and the visitor that every pass
// over a record's values is (walk.go).

type fieldKind int

const (
	kindString fieldKind = iota
	kindInt
	kindStringList
	kindObjects
	kindBool
	kindObject
)

// attrs are what a field's row says of it beyond its name and type.
type attrs uint8

const (
	// required fields identify and title a record; the rest may be
	// missing or null.
	required attrs = 1 << iota
	// markdown, code and tag choose the cap of a string or of each list
	// entry (textClass); a field with none of them is plain text.
	markdown
	code
	tag
	// bulk marks prose, code and links: values that may be long and that
	// pages read, but search does not, so a storage engine may keep them
	// out of the heap.
	bulk
	// shared marks values that many records hold alike (repo, severity,
	// tags), worth holding once.
	shared
)

// textClass says which cap applies to a string field or to each entry of a
// list field.
type textClass int

const (
	classText textClass = iota
	classMarkdown
	classCode
	classTag
)

// limit is the cap of one string of the class and the word problems use.
func (c textClass) limit() (int, string) {
	switch c {
	case classMarkdown:
		return MaxMarkdownBytes, "Markdown"
	case classCode:
		return MaxCodeBytes, "code"
	case classTag:
		return MaxTagBytes, "tag"
	}
	return MaxTextFieldBytes, "text"
}

// fieldInfo is what every pass over the values reads of a field, whatever
// the type of the object holding it.
type fieldInfo struct {
	name     string
	kind     fieldKind
	nullable bool // a pointer in Go: absent and null are nil
	attrs    attrs
	// elems describes the elements of a kindObjects field, or the one
	// object of a kindObject field.
	elems objectsInfo
}

func (f *fieldInfo) has(a attrs) bool { return f.attrs&a != 0 }

func (f *fieldInfo) class() textClass {
	switch {
	case f.has(markdown):
		return classMarkdown
	case f.has(code):
		return classCode
	case f.has(tag):
		return classTag
	}
	return classText
}

// kindName names the JSON type the field must have, for problems.
func (f *fieldInfo) kindName() string {
	switch f.kind {
	case kindInt:
		return "an integer"
	case kindStringList:
		return "an array of strings"
	case kindObjects:
		return "an array of " + f.elems.describe()
	case kindBool:
		return "true or false"
	case kindObject:
		return "an object: " + f.elems.describe()
	}
	return "a string"
}

// field is one row of a table: a key of the record object (T is Record)
// or of one element of an array of objects (T is that element's type).
// Exactly one accessor is set, the one its constructor below sets.
type field[T any] struct {
	fieldInfo
	str     func(*T) *string
	optStr  func(*T) **string
	num     func(*T) *int
	optNum  func(*T) **int
	strs    func(*T) *[]string
	boolean func(*T) *bool
	objects objectList[T]
	object  objectList[T]
}

// The constructors of a row, one per Go type a field may have.

func str[T any](name string, a attrs, at func(*T) *string) field[T] {
	return field[T]{fieldInfo: fieldInfo{name: name, kind: kindString, attrs: a}, str: at}
}

func optStr[T any](name string, a attrs, at func(*T) **string) field[T] {
	return field[T]{fieldInfo: fieldInfo{name: name, kind: kindString, nullable: true, attrs: a}, optStr: at}
}

func num[T any](name string, a attrs, at func(*T) *int) field[T] {
	return field[T]{fieldInfo: fieldInfo{name: name, kind: kindInt, attrs: a}, num: at}
}

func optNum[T any](name string, a attrs, at func(*T) **int) field[T] {
	return field[T]{fieldInfo: fieldInfo{name: name, kind: kindInt, nullable: true, attrs: a}, optNum: at}
}

func strs[T any](name string, a attrs, at func(*T) *[]string) field[T] {
	return field[T]{fieldInfo: fieldInfo{name: name, kind: kindStringList, attrs: a}, strs: at}
}

// objs is an array of objects of type E, each read through its own table;
// noun names one element in problems ("call-site").
func objs[T, E any](name string, a attrs, noun string, at func(*T) *[]E, fields []field[E]) field[T] {
	o := &objectsOf[T, E]{at: at, fields: fields}
	o.info = objectsInfo{noun: noun, fields: infos(fields)}
	return field[T]{fieldInfo: fieldInfo{name: name, kind: kindObjects, attrs: a, elems: o.info}, objects: o}
}

// flag is a true-or-false field; false and absent read alike.
func flag[T any](name string, a attrs, at func(*T) *bool) field[T] {
	return field[T]{fieldInfo: fieldInfo{name: name, kind: kindBool, attrs: a}, boolean: at}
}

// obj is one object of type E, read through its own table; absent and
// null are nil. noun names it in problems ("history").
func obj[T, E any](name string, a attrs, noun string, at func(*T) **E, fields []field[E]) field[T] {
	o := &objectOf[T, E]{at: at, fields: fields}
	o.info = objectsInfo{noun: noun, fields: infos(fields)}
	return field[T]{fieldInfo: fieldInfo{name: name, kind: kindObject, nullable: true, attrs: a, elems: o.info}, object: o}
}

func infos[T any](fields []field[T]) []fieldInfo {
	out := make([]fieldInfo, len(fields))
	for i := range fields {
		out[i] = fields[i].fieldInfo
	}
	return out
}

// objectList is the accessor of an array-of-objects field of T, with the
// table of its elements; objectsOf implements it for element type E, and
// objectOf for a field of one object of type E.
type objectList[T any] interface {
	walk(p *T, f *fieldInfo, v visitor)
	// value points at the field's slice in p (a *[]E), or at its
	// pointer (a **E).
	value(p *T) any
	// decodes reports whether the JSON value raw is an array whose
	// elements decode as the element type (for one object, an object
	// that decodes as E).
	decodes(raw []byte) bool
}

type objectsOf[T, E any] struct {
	at     func(*T) *[]E
	fields []field[E]
	info   objectsInfo
}

func (o *objectsOf[T, E]) value(p *T) any { return o.at(p) }

func (o *objectsOf[T, E]) decodes(raw []byte) bool {
	var l []E
	return isArray(raw) && json.Unmarshal(raw, &l) == nil
}

// objectOf is the accessor of a one-object field of T, of type E.
type objectOf[T, E any] struct {
	at     func(*T) **E
	fields []field[E]
	info   objectsInfo
}

func (o *objectOf[T, E]) value(p *T) any { return o.at(p) }

func (o *objectOf[T, E]) decodes(raw []byte) bool {
	var e E
	return bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) && json.Unmarshal(raw, &e) == nil
}

// objectsInfo is what the passes that read JSON, not records, need of an
// array of objects, or of one object: its fields.
type objectsInfo struct {
	noun   string
	fields []fieldInfo
}

// field returns the element field called name.
func (o objectsInfo) field(name string) (*fieldInfo, bool) {
	for i := range o.fields {
		if o.fields[i].name == name {
			return &o.fields[i], true
		}
	}
	return nil, false
}

// describe is "call-site objects (filePath, lineNumber, ...)".
func (o objectsInfo) describe() string {
	names := make([]string, len(o.fields))
	for i, f := range o.fields {
		names[i] = f.name
	}
	return o.noun + " objects (" + strings.Join(names, ", ") + ")"
}

func isArray(v []byte) bool { return bytes.HasPrefix(bytes.TrimSpace(v), []byte("[")) }

// visitor is one pass over a record's values.
type visitor interface {
	// text is a string field, an entry of a list field, or a string of
	// an element of an array of objects.
	text(f *fieldInfo, p *string)
	// num is an integer field.
	num(f *fieldInfo, p *int)
	// present is called for a nullable field before its value is
	// visited, with whether the value is there (absent and null are
	// nil); it returns whether it is to be. A pass setting values
	// decides, and the walk allocates the value or drops it.
	present(f *fieldInfo, there bool) bool
	// count is called for a list or an array of objects before its
	// entries are visited; it returns how many there are to be, which
	// a pass setting values chooses.
	count(f *fieldInfo, n int) int
	// arena allocates what a pass setting values makes; nil for the
	// passes that only read.
	arena() *Arena
}

// An Arena allocates the lists and values of records whose shape it sets
// from shared blocks, so that setting back a dataset's records costs a few
// allocations rather than several a record. Its zero value is ready.
type Arena struct {
	ints    []int
	texts   []string
	lists   []string
	objects map[any]any // per array-of-objects field, a *[]E block
	// setter is the pass SetShape runs, kept here so that it is not
	// allocated for each record.
	setter visitor
}
