package errkb

import (
	"fmt"
	"io"
	"io/fs"
	"strings"
)

// Limits on what a dataset may hold. A dataset may come from anyone, so
// every size the loader, the index or the renderer pays for is capped, and
// a record over a cap is reported, not trimmed.
const (
	// MaxRecordBytes caps one record's JSON.
	MaxRecordBytes = 1 << 20
	// MaxJSONDepth caps the nesting of any field's value. Known fields need
	// 1; unknown ones get room, but not the thousands of levels that make
	// decoders slow or crash them.
	MaxJSONDepth = 32
	// MaxMarkdownBytes caps one Markdown field or list entry: some inputs
	// make goldmark quadratic (64 KiB of "[a](b" takes half a second, 256 KiB
	// eight), and 16 KiB renders in tens of milliseconds at worst.
	MaxMarkdownBytes = 16 << 10
	// MaxCodeBytes caps one code field.
	MaxCodeBytes = 64 << 10
	// MaxTextBytes caps every other known string field.
	MaxTextBytes = 4 << 10
	// MaxListEntries caps solutions, preventionTips and tags.
	MaxListEntries = 100
	// MaxTagBytes caps one tag.
	MaxTagBytes = 100
)

// readCapped reads one dataset file, refusing anything but a regular file
// of at most MaxFileBytes: a FIFO or device would block or never end, and a
// huge file would exhaust memory before parsing could complain.
func readCapped(fsys fs.FS, name string) ([]byte, error) {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("is not a regular file (%s)", info.Mode().Type())
	}
	if info.Size() > MaxFileBytes {
		return nil, fmt.Errorf("is %d bytes; a dataset file may have at most %d", info.Size(), MaxFileBytes)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("grew past %d bytes while being read", MaxFileBytes)
	}
	return data, nil
}

// tooLarge reports a record over MaxRecordBytes before it is decoded.
func tooLarge(raw []byte, loc Location) Problems {
	if len(raw) <= MaxRecordBytes {
		return nil
	}
	return Problems{{Location: loc, Message: fmt.Sprintf("record is %d bytes; at most %d", len(raw), MaxRecordBytes)}}
}

// breaksLimits reports whether a record decoded on the fast path may break
// a cap or hold a link checkHostile refuses. It only has to be cheap and
// never miss: the careful path then finds and names the problem.
func breaksLimits(r *Record) bool {
	for _, f := range knownFields {
		limit, _ := f.class.limit()
		var texts []string
		switch {
		case f.str != nil:
			if p := f.str(r); p != nil {
				texts = []string{*p}
			}
		case f.list != nil:
			texts = f.list(r)
			if len(texts) > MaxListEntries {
				return true
			}
		}
		for _, t := range texts {
			if len(t) > limit {
				return true
			}
			// A scheme needs a colon, written as is or as an entity.
			if f.class == classMarkdown && strings.ContainsAny(t, ":&") && dangerousLink(t) != "" {
				return true
			}
		}
	}
	if len(r.CallSites) > MaxListEntries {
		return true
	}
	for _, cs := range r.CallSites {
		if len(cs.FilePath) > MaxTextBytes || len(cs.Function) > MaxTextBytes || len(cs.GithubURL) > MaxTextBytes {
			return true
		}
	}
	return false
}
