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
	// digests are the records' digests (see recordDigest) when loading
	// took them before a storage engine moved the bytes away.
	digests map[*Record][32]byte
	storage Storage
}

// Storage is what a dataset asks of the engine holding its records' bytes
// outside the heap (internal/store implements it). Records read the same
// whether or not there is one.
type Storage interface {
	// ReleasePages drops the records' pages from the process's memory;
	// the records read the same afterwards.
	ReleasePages()
	// ReadOrder lists the indices of Records in the order the engine
	// laid their bytes out, or returns nil for Records' own order.
	ReadOrder() []int
	// SavedHash is the dataset's Hash as the engine saved it with the
	// records (a snapshot), or "" when it has none.
	SavedHash() string
}

// SetStorage tells the dataset where its records' bytes live. Call it
// before the dataset is shared.
func (ds *Dataset) SetStorage(s Storage) { ds.storage = s }

// ReleasePages tells the kernel that the records' text, when a storage
// engine moved it out of the heap, need not stay resident: after reading
// every record, as building the index does, the pages would otherwise
// count against this process until the kernel reclaims them. Records read
// the same afterwards. Otherwise it does nothing.
func (ds *Dataset) ReleasePages() {
	if ds.storage != nil {
		ds.storage.ReleasePages()
	}
}

// ReadOrder is the order in which a pass over every record reads their
// bytes front to back, as indices of Records: the storage engine's order
// when it gives one, else Records' own. A pass over every record
// (building the index) that reads them so reads the storage front to
// back, and the pages it has read stay together. Only such a pass calls
// it: a restart that reuses its index never does.
func (ds *Dataset) ReadOrder() []int {
	if ds.storage != nil {
		if order := ds.storage.ReadOrder(); len(order) == len(ds.Records) {
			return order
		}
	}
	order := make([]int, len(ds.Records))
	for i := range order {
		order[i] = i
	}
	return order
}

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
// Load calls it; so does a storage engine setting back a saved dataset. The
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
	// A curated record merged with an extracted one answers to that
	// record's id and slug too, where no record has them, so links to it
	// keep working.
	for _, r := range records {
		if e := r.Extracted; e != nil {
			if _, ok := ds.byID[e.ID]; !ok && e.ID != "" {
				ds.byID[e.ID] = r
			}
			if _, ok := ds.byPath[pathKey(r.Repo, e.Slug)]; !ok && e.Slug != "" {
				ds.byPath[pathKey(r.Repo, e.Slug)] = r
			}
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
