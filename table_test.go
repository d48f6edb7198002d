package errkb

import (
	"reflect"
	"strings"
	"testing"
)

// TestFieldTableMatchesRecord checks each table against the Go type it
// reads: every field with a JSON name has one row, of the kind its Go
// type has, whose accessor points at that field, and so on into the
// elements of arrays of objects. A field added to Record (or to CallSite)
// without its row, or a row pointing at another field, fails here.
func TestFieldTableMatchesRecord(t *testing.T) {
	checkTable(t, knownFields)
	checkTable(t, callSiteFields)
	checkTable(t, placeFields)
	checkTable(t, faceFields)
	checkTable(t, conditionFields)
	checkTable(t, guardFields)
	checkTable(t, settingFields)
	checkTable(t, entryFields)
	checkTable(t, checkEntryFields)
	checkTable(t, recordTestFields)
	checkTable(t, docFields)
	checkTable(t, historyFields)
	checkTable(t, oldMessageFields)
	checkTable(t, citationFields)
	checkTable(t, extractedFields)
	checkTable(t, differenceFields)
	checkInfos(t, reflect.TypeFor[Record](), infos(knownFields))
}

// checkInfos checks rows against the JSON fields of typ by name and kind,
// into the elements of arrays of objects, whose accessors checkTable
// cannot reach without knowing their type.
func checkInfos(t *testing.T, typ reflect.Type, rows []fieldInfo) {
	t.Helper()
	if len(rows) > maxKnownFields {
		t.Errorf("%s: %d rows; the fast parser marks at most %d", typ, len(rows), maxKnownFields)
	}
	byName := map[string]fieldInfo{}
	for _, f := range rows {
		byName[f.name] = f
	}
	named := 0
	for sf := range typ.Fields() {
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if !sf.IsExported() || name == "" || name == "-" {
			continue
		}
		named++
		f, ok := byName[name]
		if kind, nullable := goKind(sf.Type); !ok || f.kind != kind || f.nullable != nullable {
			t.Errorf("%s.%s (%q): no row of its kind", typ, sf.Name, name)
			continue
		}
		switch f.kind {
		case kindObjects, kindObject:
			checkInfos(t, sf.Type.Elem(), f.elems.fields)
		}
	}
	if named != len(rows) {
		t.Errorf("%s: %d rows for %d fields with a JSON name", typ, len(rows), named)
	}
}

func checkTable[T any](t *testing.T, fields []field[T]) {
	t.Helper()
	var v T
	rv := reflect.ValueOf(&v).Elem()
	rows := map[string]*field[T]{}
	for i := range fields {
		f := &fields[i]
		if rows[f.name] != nil {
			t.Errorf("%T: two rows for %q", v, f.name)
		}
		rows[f.name] = f
	}
	named := 0
	for i := range rv.NumField() {
		sf := rv.Type().Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if !sf.IsExported() || name == "" || name == "-" {
			continue
		}
		named++
		f := rows[name]
		if f == nil {
			t.Errorf("%T.%s (%q) has no row in the field table", v, sf.Name, name)
			continue
		}
		if kind, nullable := goKind(sf.Type); f.kind != kind || f.nullable != nullable {
			t.Errorf("%T.%s: row of kind %d (nullable %v), Go type %s", v, sf.Name, f.kind, f.nullable, sf.Type)
		}
		if got, want := reflect.ValueOf(rowValue(f, &v)).Pointer(), rv.Field(i).Addr().Pointer(); got != want {
			t.Errorf("row %q points at another field than %T.%s", name, v, sf.Name)
		}
	}
	if named != len(fields) {
		t.Errorf("%T: %d rows for %d fields with a JSON name", v, len(fields), named)
	}
}

// goKind is the kind and nullability a row for a Go field of type t has.
func goKind(t reflect.Type) (fieldKind, bool) {
	nullable := t.Kind() == reflect.Pointer
	if nullable {
		t = t.Elem()
	}
	switch {
	case t.Kind() == reflect.String:
		return kindString, nullable
	case t.Kind() == reflect.Int:
		return kindInt, nullable
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String:
		return kindStringList, nullable
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct:
		return kindObjects, nullable
	case t.Kind() == reflect.Bool:
		return kindBool, nullable
	case t.Kind() == reflect.Struct && nullable:
		return kindObject, nullable
	}
	return -1, nullable
}

// rowValue is the pointer a row's accessor returns.
func rowValue[T any](f *field[T], p *T) any {
	switch {
	case f.str != nil:
		return f.str(p)
	case f.optStr != nil:
		return f.optStr(p)
	case f.num != nil:
		return f.num(p)
	case f.optNum != nil:
		return f.optNum(p)
	case f.strs != nil:
		return f.strs(p)
	case f.boolean != nil:
		return f.boolean(p)
	case f.objects != nil:
		return f.objects.value(p)
	case f.object != nil:
		return f.object.value(p)
	}
	return nil
}
