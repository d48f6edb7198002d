package extract

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/errkb/errkb"
)

// Tool names what made the records in their provenance.
const Tool = "errkb extract"

// License finds the module's license file at its root: its name, text and
// SPDX identifier when the text is one errkb recognises ("" otherwise).
func License(root string) (name string, text []byte, spdx string) {
	for _, n := range []string{"LICENSE", "LICENSE.txt", "LICENSE.md", "LICENCE", "COPYING"} {
		data, err := os.ReadFile(filepath.Join(root, n))
		if err == nil {
			return n, data, spdxOf(data)
		}
	}
	return "", nil, ""
}

func spdxOf(text []byte) string {
	t := strings.Join(strings.Fields(string(text)), " ")
	switch {
	case strings.Contains(t, "Apache License") && strings.Contains(t, "Version 2.0"):
		return "Apache-2.0"
	case strings.Contains(t, "Permission is hereby granted, free of charge"):
		return "MIT"
	case strings.Contains(t, "Redistribution and use in source and binary forms") && strings.Contains(t, "Neither the name"):
		return "BSD-3-Clause"
	case strings.Contains(t, "Redistribution and use in source and binary forms"):
		return "BSD-2-Clause"
	case strings.Contains(t, "Mozilla Public License Version 2.0"):
		return "MPL-2.0"
	}
	return ""
}

// Write puts one project's records under out/OWNER/NAME/, one file per
// record named after its slug, with the provenance file and the license
// text beside them. It writes a new folder and renames it into place, so
// a reader never sees a half-written project; the folder it replaces must
// be one Write made (it holds a provenance file), so hand-written records
// are never deleted.
func Write(out string, recs []errkb.Record, prov errkb.Provenance, licenseName string, license []byte) error {
	owner, name, _ := strings.Cut(prov.Repo, "/")
	parent := filepath.Join(out, owner)
	final := filepath.Join(parent, name)
	if isDir(final) {
		if _, err := os.Stat(filepath.Join(final, errkb.ProvenanceFile)); err != nil {
			return fmt.Errorf("%s exists and holds no %s: it was not written by %s, so it is left alone (choose another --out)", final, errkb.ProvenanceFile, Tool)
		}
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+name+".new-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	if err := writeAll(tmp, recs, prov, licenseName, license); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	old := ""
	if isDir(final) {
		old = filepath.Join(parent, "."+name+".old")
		_ = os.RemoveAll(old)
		if err := os.Rename(final, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, final); err != nil {
		if old != "" {
			_ = os.Rename(old, final)
		}
		return err
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

func writeAll(dir string, recs []errkb.Record, prov errkb.Provenance, licenseName string, license []byte) error {
	for i := range recs {
		data, err := EncodeRecord(&recs[i])
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, recs[i].Slug+".json"), data, 0o644); err != nil {
			return err
		}
	}
	if license != nil {
		if err := os.WriteFile(filepath.Join(dir, licenseName), license, 0o644); err != nil {
			return err
		}
	}
	data, err := json.MarshalIndent(prov, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, errkb.ProvenanceFile), append(data, '\n'), 0o644)
}

// EncodeRecord is a record's file: one line of JSON, in an envelope whose
// datasetVersion is the source's time when there is one.
func EncodeRecord(r *errkb.Record) ([]byte, error) {
	var v any = r
	if r.AnalyzedAt != "" {
		v = struct {
			Record         *errkb.Record `json:"record"`
			DatasetVersion string        `json:"datasetVersion"`
		}{r, r.AnalyzedAt}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode record %s: %w", r.Slug, err)
	}
	return b.Bytes(), nil
}

// ErrNoErrors is returned when a module defines no error extract can read.
var ErrNoErrors = errors.New("found no errors")
