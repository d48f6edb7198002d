package errkb

import (
	"bytes"
	"crypto/sha256"
	"maps"
	"path"

	"github.com/errkb/errkb/internal/parallel"
)

// Load reads every .json and .jsonl file of the folders, validates each
// record and checks that ids and repo+slug pairs are unique across all of
// them. It always returns the dataset of valid records; when any record is
// bad it also returns Problems listing every problem found, so the caller
// decides whether to refuse or to serve the rest.
func Load(folders ...Folder) (*Dataset, error) {
	return LoadWithOptions(Options{}, folders...)
}

// Options tune loading.
type Options struct {
	// Parsed, when set, is given each file's valid records as soon as
	// the file is parsed, on several goroutines at once. A storage
	// engine (internal/store) moves the records' bytes out of the heap
	// there, while only a few files' records are on it. Loading takes
	// each record's digest for the dataset's Hash before, from the bytes
	// as read. A curated record merged with its extracted twin (see
	// mergeCurated) is given again once merged, its bytes changed.
	Parsed func(records []*Record)
}

// LoadWithOptions is Load with options.
func LoadWithOptions(opts Options, folders ...Folder) (*Dataset, error) {
	var (
		records  []*Record
		problems Problems
		total    int64
		digests  map[*Record][sha256.Size]byte
	)
	provDirs := make(map[string]Provenance)
	for _, f := range folders {
		files, size, probs := f.datasetFiles()
		problems = append(problems, probs...)
		total += size
		if probs := checkDatasetSize(f.Name, total); probs != nil {
			return NewDataset(nil), probs
		}
		files, provFiles := splitProvenance(files)
		prov, provProbs := readProvenance(f, provFiles)
		problems = append(problems, provProbs...)
		maps.Copy(provDirs, prov)
		for _, r := range parseFiles(f, files, opts.Parsed) {
			records = append(records, r.records...)
			problems = append(problems, r.problems...)
			if r.digests != nil && digests == nil {
				digests = make(map[*Record][sha256.Size]byte)
			}
			for i, d := range r.digests {
				digests[r.records[i]] = d
			}
		}
	}
	records, merged := mergeCurated(records, provDirs)
	for _, r := range merged {
		delete(digests, r) // its bytes changed: hashed again
	}
	if opts.Parsed != nil && len(merged) > 0 {
		opts.Parsed(merged)
	}
	records, dups := dropDuplicates(records)
	problems = append(problems, dups...)
	ds := NewDataset(records)
	ds.Provenance = provenanceByRepo(provDirs)
	ds.digests = digests
	if len(problems) > 0 {
		return ds, problems
	}
	return ds, nil
}

// byteOrderMark is U+FEFF in UTF-8, which some editors put at the start
// of a file and JSON does not allow.
var byteOrderMark = []byte("\xEF\xBB\xBF")

// fileResult is what one dataset file holds.
type fileResult struct {
	records  []*Record
	problems Problems
	// digests are the records' digests, taken before Options.Parsed
	// when there is one.
	digests [][sha256.Size]byte
}

// parseFiles reads and parses the files on every CPU; results keep the
// files' order, so which of two duplicates is kept never depends on timing.
func parseFiles(f Folder, files []string, parsed func([]*Record)) []fileResult {
	results := make([]fileResult, len(files))
	parallel.For(len(files), func(i int) {
		r := parseFile(f, files[i])
		if parsed != nil {
			r.digests = make([][sha256.Size]byte, len(r.records))
			for k, rec := range r.records {
				r.digests[k] = recordDigest(rec)
			}
			parsed(r.records)
		}
		results[i] = r
	})
	return results
}

func parseFile(f Folder, p string) fileResult {
	name := path.Join(f.Name, p)
	data, err := readCapped(f.FS, p)
	if err != nil {
		return fileResult{problems: Problems{{Location: Location{File: name}, Message: fileError(err)}}}
	}
	if bytes.HasPrefix(data, byteOrderMark) {
		return fileResult{problems: Problems{{Location: Location{File: name, Line: 1},
			Message: "starts with a byte-order mark (U+FEFF); JSON files must be saved as UTF-8 without one"}}}
	}
	var r fileResult
	if path.Ext(p) == ".jsonl" {
		r.records, r.problems = parseJSONL(name, data)
	} else {
		r.records, r.problems = parseJSON(name, data)
	}
	return r
}
