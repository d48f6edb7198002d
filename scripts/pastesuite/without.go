package main

import (
	"io/fs"
	"path"
	"slices"
	"strings"
)

// withoutDir is a file system with one folder left out: the embedded
// dataset without the standard library's records, which the "std" suite
// holds on its own, as index/pastesuites_test.go loads it.
type withoutDir struct {
	fs.FS
	dir string
}

func (w withoutDir) hidden(name string) bool {
	return name == w.dir || strings.HasPrefix(name, w.dir+"/")
}

func (w withoutDir) Open(name string) (fs.File, error) {
	if w.hidden(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return w.FS.Open(name)
}

func (w withoutDir) ReadDir(name string) ([]fs.DirEntry, error) {
	if w.hidden(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	es, err := fs.ReadDir(w.FS, name)
	return slices.DeleteFunc(es, func(e fs.DirEntry) bool { return w.hidden(path.Join(name, e.Name())) }), err
}
