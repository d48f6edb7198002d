package errkb

import (
	"encoding/json"
	"maps"
	"path"
	"slices"
)

// ProvenanceFile names the file beside a project's extracted records that
// says where they came from. It is not a record.
const ProvenanceFile = "_source.json"

// isProvenanceFile tells the provenance files apart from record files.
func isProvenanceFile(p string) bool { return path.Base(p) == ProvenanceFile }

// readProvenance parses the provenance files of f. The result is keyed by
// the folder holding each file, prefixed with f's name like Location.File,
// so records can be matched to the folder they came from.
func readProvenance(f Folder, files []string) (map[string]Provenance, Problems) {
	byDir := make(map[string]Provenance)
	var probs Problems
	for _, p := range files {
		name := path.Join(f.Name, p)
		data, err := readCapped(f.FS, p)
		if err != nil {
			probs = append(probs, Problem{Location: Location{File: name}, Message: err.Error()})
			continue
		}
		var pv Provenance
		if err := json.Unmarshal(data, &pv); err != nil {
			probs = append(probs, Problem{Location: Location{File: name}, Message: "invalid provenance: " + err.Error()})
			continue
		}
		if !repoRE.MatchString(pv.Repo) {
			probs = append(probs, Problem{Location: Location{File: name}, Field: "repo",
				Message: `must be "owner/name", got ` + quote(pv.Repo)})
			continue
		}
		byDir[path.Dir(name)] = pv
	}
	return byDir, probs
}

// provenanceByRepo keys the provenance of every folder by its repo.
func provenanceByRepo(byDir map[string]Provenance) map[string]Provenance {
	out := make(map[string]Provenance, len(byDir))
	for _, dir := range slices.Sorted(maps.Keys(byDir)) { // the last folder wins, the same every time
		out[byDir[dir].Repo] = byDir[dir]
	}
	return out
}

// splitProvenance separates the provenance files from the record files.
func splitProvenance(files []string) (records, provenance []string) {
	for _, f := range files {
		if isProvenanceFile(f) {
			provenance = append(provenance, f)
		} else {
			records = append(records, f)
		}
	}
	return records, provenance
}

// ReadProvenance reads only the provenance files of the folders, keyed by
// repo as Dataset.Provenance, for a dataset set back from a snapshot,
// which keeps records alone.
func ReadProvenance(folders ...Folder) map[string]Provenance {
	all := make(map[string]Provenance)
	for _, f := range folders {
		files, _, _ := f.datasetFiles()
		_, provFiles := splitProvenance(files)
		prov, _ := readProvenance(f, provFiles)
		maps.Copy(all, prov)
	}
	return provenanceByRepo(all)
}
