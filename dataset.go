package errkb

import (
	"cmp"
	"slices"
	"strings"
	"sync"
)

// Dataset is a loaded, validated set of records with the lookups pages need.
// It is read-only once built, so it is safe for concurrent use.
type Dataset struct {
	// Records are sorted by repo, then slug.
	Records []*Record
	// Provenance is each project's attribution, keyed by repo.
	Provenance map[string]Provenance

	byID    map[string]*Record
	byPath  map[string]*Record
	byRepo  map[string][]*Record // key: lower-case repo
	byTag   map[string][]*Record
	repos   []Project
	tags    []TagCount
	version string

	hashOnce sync.Once
	hash     string
	storage  Storage
}

// Storage is what a storage engine (internal/store) that holds a dataset's
// bytes outside the heap tells the dataset about them.
type Storage struct {
	// Release drops the records' pages from the process's memory; the
	// records read the same afterwards.
	Release func()
	// Err is why the records stayed on the heap, or were not saved for
	// the next start, when that was asked for.
	Err error
	// FromSnapshot is set when the records were read from a snapshot
	// saved by an earlier start rather than from their files.
	FromSnapshot bool
	// Digests holds each record's RecordDigest, computed while its bytes
	// were still on the heap, so hashing the dataset reads no pages back.
	Digests map[*Record][32]byte
	// Hash is the dataset's Hash when the engine saved it with the
	// records (a snapshot); empty otherwise.
	Hash string
	// Order lists the indices of Records in the order the engine laid
	// their bytes out; nil, or returning nil, when that is Records' own
	// order. A pass over every record (building the index) that reads
	// them so reads the storage front to back, and the pages it has read
	// stay together. Only such a pass calls it: a restart that reuses
	// its index never does.
	Order func() []int
}

// SetStorage records where the dataset's bytes live. Call it before the
// dataset is shared.
func (ds *Dataset) SetStorage(s Storage) { ds.storage = s }

// FromSnapshot reports whether the records were read from a snapshot
// saved by an earlier start rather than from their files.
func (ds *Dataset) FromSnapshot() bool { return ds.storage.FromSnapshot }

// ReleasePages tells the kernel that the records' text, when a storage
// engine moved it out of the heap, need not stay resident: after reading
// every record, as building the index does, the pages would otherwise
// count against this process until the kernel reclaims them. Records read
// the same afterwards. Otherwise it does nothing.
func (ds *Dataset) ReleasePages() {
	if ds.storage.Release != nil {
		ds.storage.Release()
	}
}

// ReadOrder is the order in which a pass over every record reads their
// bytes front to back, as indices of Records (see Storage.Order): the
// storage engine's order when it gave one, else Records' own.
func (ds *Dataset) ReadOrder() []int {
	if ds.storage.Order != nil {
		if order := ds.storage.Order(); len(order) == len(ds.Records) {
			return order
		}
	}
	order := make([]int, len(ds.Records))
	for i := range order {
		order[i] = i
	}
	return order
}

// SpillError is why records could not be moved out of the heap, or saved
// for the next start, when that was asked for; nil otherwise.
func (ds *Dataset) SpillError() error { return ds.storage.Err }

// Project is one repo with the number of records it has.
type Project struct {
	Repo  string
	Count int
}

// TagCount is one tag with the number of records carrying it.
type TagCount struct {
	Tag   string
	Count int
}

// NewDataset sorts records and indexes them for the lookups pages need.
// Load calls it; so does a storage engine reading a saved dataset. The
// records must be valid and unique, as Load leaves them.
func NewDataset(records []*Record) *Dataset {
	slices.SortFunc(records, func(a, b *Record) int {
		return cmp.Or(strings.Compare(strings.ToLower(a.Repo), strings.ToLower(b.Repo)), strings.Compare(a.Slug, b.Slug))
	})
	ds := &Dataset{
		Records: records,
		byID:    make(map[string]*Record, len(records)),
		byPath:  make(map[string]*Record, len(records)),
		byRepo:  make(map[string][]*Record),
		byTag:   make(map[string][]*Record),
	}
	for _, r := range records {
		ds.byID[r.ID] = r
		ds.byPath[pathKey(r.Repo, r.Slug)] = r
		key := strings.ToLower(r.Repo)
		if len(ds.byRepo[key]) == 0 {
			ds.repos = append(ds.repos, Project{Repo: r.Repo})
		}
		ds.byRepo[key] = append(ds.byRepo[key], r)
		ds.repos[len(ds.repos)-1].Count++
		ds.version = max(ds.version, r.DatasetVersion)
		for _, t := range r.Tags {
			ds.byTag[t] = append(ds.byTag[t], r)
		}
	}
	for t, rs := range ds.byTag {
		ds.tags = append(ds.tags, TagCount{Tag: t, Count: len(rs)})
	}
	slices.SortFunc(ds.tags, func(a, b TagCount) int {
		return cmp.Or(b.Count-a.Count, strings.Compare(a.Tag, b.Tag))
	})
	return ds
}

// Len is the number of records.
func (ds *Dataset) Len() int { return len(ds.Records) }

// ByID returns the record with this id.
func (ds *Dataset) ByID(id string) (*Record, bool) {
	r, ok := ds.byID[id]
	return r, ok
}

// ByPath returns the record at repo/slug; repo is compared without case so
// that links typed by hand still work.
func (ds *Dataset) ByPath(repo, slug string) (*Record, bool) {
	r, ok := ds.byPath[pathKey(repo, slug)]
	return r, ok
}

// ByRepo returns the records of one project, repo compared without case.
func (ds *Dataset) ByRepo(repo string) []*Record { return ds.byRepo[strings.ToLower(repo)] }

// ByTag returns the records carrying a tag.
func (ds *Dataset) ByTag(tag string) []*Record { return ds.byTag[tag] }

// Projects lists every project, sorted by repo.
func (ds *Dataset) Projects() []Project { return ds.repos }

// Tags lists every tag, most used first.
func (ds *Dataset) Tags() []TagCount { return ds.tags }

// Version is the newest datasetVersion among the records ("" if none has
// one); pages show it so readers know how fresh the data is.
func (ds *Dataset) Version() string { return ds.version }
