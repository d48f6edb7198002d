//go:build linux

package store

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/parallel"
)

// A snapshot is keyed on the binary (its parsing and validation rules)
// and every dataset file's name and bytes. Hashing 450 MB of files took a
// quarter of a restart, so a restart compares what stat says of each file
// (size, modification and change times, inode, device) with what it said
// when the snapshot was made, as git does for its index, and reads only
// the files that differ. A write changes a file's change time, which no
// program can set back, so a changed file always differs. A file changed
// within racyWindow before the snapshot looked at it could still be
// changed again within the same timestamp tick: such a file, and any
// file without stat data (the embedded dataset), is hashed at every start.
var racyWindow = 3 * time.Second

// datasetFile is one dataset file, or the binary, as found at start.
type datasetFile struct {
	name string // folder name and path, or "" for the binary
	open func() (io.ReadCloser, error)
	stat fileStat
}

// fileStat is what stat says of a file; zero when it says nothing usable.
type fileStat struct {
	size, mtime, ctime, ino, dev uint64
}

func statOf(info fs.FileInfo) fileStat {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStat{}
	}
	return fileStat{uint64(st.Size), uint64(st.Mtim.Nano()), uint64(st.Ctim.Nano()), st.Ino, st.Dev}
}

// listFiles lists the binary and the folders' files with their stat.
func listFiles(folders []errkb.Folder) ([]datasetFile, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	info, err := os.Stat(exe)
	if err != nil {
		return nil, err
	}
	files, err := listFolderFiles(folders)
	if err != nil {
		return nil, err
	}
	return append([]datasetFile{{open: func() (io.ReadCloser, error) { return os.Open(exe) }, stat: statOf(info)}}, files...), nil
}

// listFolderFiles lists the folders' files with their stat.
func listFolderFiles(folders []errkb.Folder) ([]datasetFile, error) {
	var files []datasetFile
	for _, f := range folders {
		names, err := f.Files()
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			info, err := fs.Stat(f.FS, name)
			if err != nil {
				return nil, err
			}
			fsys := f.FS
			files = append(files, datasetFile{name: f.Name + "/" + name, stat: statOf(info),
				open: func() (io.ReadCloser, error) { return fsys.Open(name) }})
		}
	}
	return files, nil
}

// manifest is what a snapshot was made from: each file's stat, whether
// the stat can be trusted (see racyWindow), and its SHA-256.
type manifest []manifestEntry

type manifestEntry struct {
	name    string
	stat    fileStat
	trusted bool
	sum     [sha256.Size]byte
}

// hashFiles makes the manifest of files, reading each on every CPU, and
// the snapshot key it gives.
func hashFiles(files []datasetFile) (manifest, string, error) {
	now := uint64(time.Now().UnixNano())
	m := make(manifest, len(files))
	errs := make([]error, len(files))
	parallel.For(len(files), func(i int) {
		f := files[i]
		m[i] = manifestEntry{name: f.name, stat: f.stat}
		m[i].trusted = f.stat != fileStat{} && f.stat.ctime+uint64(racyWindow) < now
		m[i].sum, errs[i] = hashFile(f)
	})
	if err := errors.Join(errs...); err != nil {
		return nil, "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "errkb snapshot %d\n%d\n", snapshotVersion, len(m))
	for _, e := range m {
		writeField(h, []byte(e.name))
		_, _ = h.Write(e.sum[:])
	}
	return m, hex.EncodeToString(h.Sum(nil))[:32], nil
}

var hashBuffers = sync.Pool{New: func() any { return make([]byte, 1<<20) }}

func hashFile(f datasetFile) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	rc, err := f.open()
	if err != nil {
		return sum, err
	}
	defer rc.Close()
	buf := hashBuffers.Get().([]byte)
	defer hashBuffers.Put(buf)
	h := sha256.New()
	if _, err := io.CopyBuffer(h, rc, buf); err != nil {
		return sum, fmt.Errorf("hash %s: %w", f.name, err)
	}
	h.Sum(sum[:0])
	return sum, nil
}

// check says whether files are the ones the manifest lists, unchanged:
// same names in the same order, and each either with the trusted stat
// it had or with the same bytes.
func (m manifest) check(files []datasetFile) error {
	if len(files) != len(m) {
		return errors.New("snapshot of other files")
	}
	var reread []int
	for i, f := range files {
		if f.name != m[i].name {
			return errors.New("snapshot of other files")
		}
		if !m[i].trusted || f.stat != m[i].stat {
			reread = append(reread, i)
		}
	}
	changed := make([]bool, len(reread))
	parallel.For(len(reread), func(j int) {
		i := reread[j]
		sum, err := hashFile(files[i])
		changed[j] = err != nil || sum != m[i].sum
	})
	if slices.Contains(changed, true) {
		return errors.New("dataset files changed since the snapshot")
	}
	return nil
}

func (m manifest) append(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(m)))
	for _, e := range m {
		b = appendString(b, e.name)
		for _, v := range []uint64{e.stat.size, e.stat.mtime, e.stat.ctime, e.stat.ino, e.stat.dev} {
			b = binary.AppendUvarint(b, v)
		}
		t := uint64(0)
		if e.trusted {
			t = 1
		}
		b = binary.AppendUvarint(b, t)
		b = append(b, e.sum[:]...)
	}
	return b
}

func readManifest(rd *entryReader) manifest {
	n := rd.uint()
	if rd.err || n > uint64(len(rd.b)) {
		rd.err = true
		return nil
	}
	m := make(manifest, n)
	for i := range m {
		e := &m[i]
		e.name = rd.string()
		e.stat = fileStat{rd.uint(), rd.uint(), rd.uint(), rd.uint(), rd.uint()}
		e.trusted = rd.uint() == 1
		if rd.err || len(rd.b) < sha256.Size {
			rd.err = true
			return nil
		}
		copy(e.sum[:], rd.b)
		rd.b = rd.b[sha256.Size:]
	}
	return m
}

// writeField writes b with its length, so field boundaries cannot shift
// between files and still hash the same.
func writeField(h io.Writer, b []byte) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
	_, _ = h.Write(n[:])
	_, _ = h.Write(b)
}
