package extract

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/errkb/errkb"
)

// Batch is one source of an extract run: its errors and the records made
// of them (by Records, with the same origin). JoinFaces reads the errors
// and fills the records' faces.
type Batch struct {
	Origin  Origin
	Errors  []Error
	Records []errkb.Record
}

// Sides of a face (errkb.Face.Side): a module that answers with its own
// error table is a server; one whose code constants carry a server's
// codes is its client.
const (
	SideServer = "server"
	SideClient = "client"
)

// member is one record's place in a group of faces, with the fact that
// puts it there.
type member struct {
	batch    int
	rec      *errkb.Record
	relation string
	at       Where // the fact, in the record's own module
	server   bool  // an entry of a server's error table
}

// JoinFaces fills each record's faces from facts in the code, across all
// the batches of one run, so that a server and its client join:
//
//   - a server's table entry and the client's sentinels for its code:
//     those whose literal carries a code constant of that value, and
//     those the client's code returns when a code equals it;
//   - sentinels with the same message in two packages of one module.
//
// Faces are symmetric: each record of a group lists every other, with
// the place of the fact that puts that other in the group.
func JoinFaces(batches []*Batch) {
	byCode, sameMsg := groups(batches)
	sides := make([]string, len(batches))
	batchOf := map[string]int{}
	for i, b := range batches {
		for _, r := range b.Records {
			batchOf[r.ID] = i
		}
	}
	faces := map[*errkb.Record]map[string]errkb.Face{}
	add := func(ms []member) {
		for _, a := range ms {
			for _, b := range ms {
				if a.rec == b.rec || faces[a.rec][b.rec.ID] != (errkb.Face{}) {
					continue
				}
				if faces[a.rec] == nil {
					faces[a.rec] = map[string]errkb.Face{}
				}
				faces[a.rec][b.rec.ID] = face(batches[b.batch].Origin, b)
			}
		}
	}
	for _, v := range sortedKeys(byCode) {
		ms := byCode[v]
		if !slices.ContainsFunc(ms, func(m member) bool { return m.server }) {
			continue // a code no server's table defines joins nothing
		}
		for _, m := range ms {
			if m.server {
				sides[m.batch] = SideServer
			} else if sides[m.batch] == "" {
				sides[m.batch] = SideClient // unless another group shows it is the server
			}
		}
		add(ms)
	}
	for _, msg := range sortedKeys(sameMsg) {
		add(sameMsg[msg])
	}
	for _, b := range batches {
		for j := range b.Records {
			r := &b.Records[j]
			for _, f := range faces[r] {
				r.Faces = append(r.Faces, f)
			}
			for k := range r.Faces {
				r.Faces[k].Side = sides[batchOf[r.Faces[k].ID]]
			}
			slices.SortFunc(r.Faces, func(a, b errkb.Face) int {
				return cmp.Or(cmp.Compare(a.Side, b.Side), cmp.Compare(a.Package, b.Package), cmp.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID))
			})
		}
	}
}

// groups gathers the members of each server code and of each message
// that sentinels of two packages of one module share.
func groups(batches []*Batch) (byCode map[int][]member, sameMsg map[string][]member) {
	byCode, sameMsg = map[int][]member{}, map[string][]member{}
	for bi, b := range batches {
		recs := map[string]*errkb.Record{}
		for j := range b.Records {
			recs[b.Records[j].ID] = &b.Records[j]
		}
		pkgs := map[string]map[string]bool{} // message -> packages
		var named []member
		for i := range b.Errors {
			e := &b.Errors[i]
			r := recs[recordID(b.Origin.Repo, e.Key())]
			if r == nil {
				continue
			}
			if m, v, ok := codeMember(bi, r, e); ok {
				byCode[v] = append(byCode[v], m)
			}
			if e.Kind == Sentinel && e.Message != "" {
				if pkgs[e.Message] == nil {
					pkgs[e.Message] = map[string]bool{}
				}
				pkgs[e.Message][e.Package] = true
				named = append(named, member{batch: bi, rec: r, relation: "same message", at: e.Where})
			}
		}
		for _, m := range named {
			if msg := m.rec.ErrorMessage; len(pkgs[msg]) > 1 {
				sameMsg[b.Origin.Repo+"\x00"+msg] = append(sameMsg[b.Origin.Repo+"\x00"+msg], m)
			}
		}
	}
	return byCode, sameMsg
}

// codeMember places an error in the group of its code: a table entry by
// its err_code, a sentinel by the code constant its literal carries or,
// failing that, by the first comparison that maps a code to it.
func codeMember(bi int, r *errkb.Record, e *Error) (member, int, bool) {
	switch {
	case e.Kind == API && e.Code != nil:
		return member{batch: bi, rec: r, server: true, at: e.Code.At,
			relation: "err_code " + strconv.Itoa(e.Code.Value)}, e.Code.Value, true
	case e.Kind == Sentinel && e.Code != nil && e.Code.At.Line > 0:
		return member{batch: bi, rec: r, at: e.Code.At,
			relation: "err_code " + strconv.Itoa(e.Code.Value) + " (" + e.Code.Name + ")"}, e.Code.Value, true
	case e.Kind == Sentinel && len(e.Mapped) > 0:
		mp := e.Mapped[0]
		return member{batch: bi, rec: r, at: mp.At,
			relation: "err_code " + strconv.Itoa(mp.Code.Value) + " (" + mp.Code.Name + ") returns " + e.Name}, mp.Code.Value, true
	}
	return member{}, 0, false
}

// face is m as another record's face: the place links the fact in m's
// module.
func face(o Origin, m member) errkb.Face {
	return errkb.Face{ID: m.rec.ID, Package: m.rec.GoPackage, Name: cmp.Or(m.rec.QualifiedName, m.rec.ErrorMessage),
		Relation: m.relation, FilePath: o.RepoPath(m.at.File), LineNumber: m.at.Line, GithubURL: o.LineURL(m.at.File, m.at.Line)}
}

func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
