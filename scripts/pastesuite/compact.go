package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// dropped are the fields of an extracted record that lookup never reads
// and that make up most of its bytes: the facts a page shows beside the
// message (call sites, conditions, callers, handlers, tests, docs,
// history). The suite keeps every field the index and the lookup tables
// read, so a compact record is looked up exactly as the full one.
// required are the fields a record must have, even empty.
var required = map[string]bool{"id": true, "repo": true, "slug": true, "errorCode": true, "errorMessage": true, "severity": true}

var dropped = []string{"callSites", "conditions", "returnedBy", "handledAt", "tests", "docs", "history", "sources"}

// compact copies the records errkb extract wrote under src (one envelope
// a .json file) to dst as one records.jsonl per project, without the
// dropped fields or empty values, beside the project's _source.json and
// license.
func compact(src, dst string) error {
	byDir := map[string][]string{}
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dir, name := filepath.Split(rel)
		switch {
		case name == "_source.json" || !strings.HasSuffix(name, ".json"):
			return copyFile(p, filepath.Join(dst, rel))
		}
		byDir[dir] = append(byDir[dir], p)
		return nil
	})
	if err != nil {
		return fmt.Errorf("compact %s: %w", src, err)
	}
	for dir, files := range byDir {
		sort.Strings(files)
		var out bytes.Buffer
		for _, f := range files {
			line, err := compactRecord(f)
			if err != nil {
				return err
			}
			out.Write(line)
			out.WriteByte('\n')
		}
		if err := os.MkdirAll(filepath.Join(dst, dir), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, dir, "records.jsonl"), out.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// compactRecord is one envelope file as one line, without the dropped
// fields and with no empty value.
func compactRecord(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var env map[string]json.RawMessage
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var rec map[string]json.RawMessage
	if err := json.Unmarshal(env["record"], &rec); err != nil {
		return nil, fmt.Errorf("%s: record: %w", path, err)
	}
	for _, k := range dropped {
		delete(rec, k)
	}
	for k, v := range rec {
		if required[k] {
			continue
		}
		if s := string(v); s == "null" || s == `""` || s == "[]" || s == "{}" {
			delete(rec, k)
		}
	}
	r, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	env["record"] = r
	return json.Marshal(env)
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

// writeJSON writes v indented, one query a line.
func writeJSON(path string, qs []query) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.WriteString("[\n")
	for i, q := range qs {
		b, err := json.Marshal(q)
		if err != nil {
			return err
		}
		w.Write(b)
		if i < len(qs)-1 {
			w.WriteByte(',')
		}
		w.WriteByte('\n')
	}
	w.WriteString("]\n")
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}
