package errkb

// LoadCareful is Load with the fast record path off, for tests that
// compare what Load does with and without it.
func LoadCareful(folders ...Folder) (*Dataset, error) {
	fastPath = false
	defer func() { fastPath = true }()
	return Load(folders...)
}

// FieldNames lists the known fields in the table's order.
func FieldNames() []string {
	names := make([]string, len(knownFields))
	for i, f := range knownFields {
		names[i] = f.name
	}
	return names
}

// FastAccepts reports whether the fast record path accepts raw.
func FastAccepts(raw []byte) bool {
	_, ok := parseEntryFast(raw, Location{File: "t.json"})
	return ok
}

// CapDataset lowers the cap on a dataset's total size until the test ends.
func CapDataset(t interface{ Cleanup(func()) }, n int64) {
	old := maxDatasetBytes
	maxDatasetBytes = n
	t.Cleanup(func() { maxDatasetBytes = old })
}

// MaxKnownFields is how many fields the table may hold.
const MaxKnownFields = maxKnownFields
