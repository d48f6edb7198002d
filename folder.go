package errkb

import (
	"io/fs"
	"path"
	"strings"
)

// Folder is one dataset folder: the embedded dataset or a --dataset folder.
// Name prefixes file names in problems so users can find the file.
type Folder struct {
	Name string
	FS   fs.FS
}

// Files lists the dataset files of the folder, as Load reads them, or
// says why they cannot all be listed.
func (f Folder) Files() ([]string, error) {
	files, _, probs := f.datasetFiles()
	if len(probs) > 0 {
		return nil, probs
	}
	return files, nil
}

// datasetFiles lists the .json and .jsonl files of the folder in walk
// order, skipping folders whose names start with a dot, with their total
// size.
func (f Folder) datasetFiles() ([]string, int64, Problems) {
	var (
		files    []string
		size     int64
		problems Problems
	)
	err := fs.WalkDir(f.FS, ".", func(p string, d fs.DirEntry, err error) error {
		name := path.Join(f.Name, p)
		if err != nil {
			problems = append(problems, Problem{Location: Location{File: name}, Message: fileError(err)})
			return nil
		}
		if d.IsDir() {
			if p != "." && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		if ext := path.Ext(p); ext == ".json" || ext == ".jsonl" {
			files = append(files, p)
			if info, err := d.Info(); err == nil {
				size += info.Size()
			}
		}
		return nil
	})
	if err != nil {
		problems = append(problems, Problem{Location: Location{File: f.Name}, Message: err.Error()})
	}
	return files, size, problems
}

// fileError says in plain words why a dataset file could not be read.
// A dataset opened with os.OpenRoot refuses symbolic links that leave its
// folder with an error whose text ("statat x: path escapes from parent")
// names no cause a user would recognise; os does not export it to compare.
func fileError(err error) string {
	if strings.Contains(err.Error(), "path escapes from parent") {
		return "is a symbolic link to a file outside the dataset folder; copy the file into the folder instead"
	}
	return err.Error()
}
