package index

import (
	"slices"

	"github.com/errkb/errkb"
)

// Part of the candidates stage: which of several records that are one
// error seen from several places (faces: the server's error, the clients'
// constants and sentinels for its code) is the error itself. A lookup of
// what they share answers with that record, whose page lists the others,
// rather than leaving a choice between faces of one error.

// typeAPIError is the errorType the extractor gives an entry of a
// project's own table of API errors (extract.API): the error a numeric
// code belongs to, which clients only map.
const typeAPIError = "api_error"

// errorOf returns, of records sharing a numeric code or a message, the
// one that is the error: the only one sent over the wire under its code,
// else the only one whose faces include all the others. ok is false when
// no record stands out, and the reader chooses.
func (ix *Index) errorOf(recs []int32) (int32, bool) {
	if len(recs) == 1 {
		return recs[0], true
	}
	var sent []int32
	for _, i := range recs {
		if sentUnderCode(ix.ds.Records[i]) {
			sent = append(sent, i)
		}
	}
	if len(sent) == 1 {
		return sent[0], true
	}
	return ix.facesOf(recs)
}

// facesOf returns the only record of recs whose faces include all the
// others.
func (ix *Index) facesOf(recs []int32) (int32, bool) {
	var all []int32
	for _, i := range recs {
		if ix.facesInclude(i, recs) {
			all = append(all, i)
		}
	}
	if len(all) == 1 {
		return all[0], true
	}
	return 0, false
}

// sentUnderCode reports whether r is an error the project sends to its
// clients under its numeric code, as its own or as the record merged
// into it says.
func sentUnderCode(r *errkb.Record) bool {
	if r.NumericCode == nil {
		return false
	}
	if r.Surface == errkb.SurfaceProtocol || r.ErrorType == typeAPIError {
		return true
	}
	return r.Extracted != nil && r.Extracted.Surface == errkb.SurfaceProtocol
}

// facesInclude reports whether record i lists every other record of recs
// among its faces (by id, or by the id of a record merged into it).
func (ix *Index) facesInclude(i int32, recs []int32) bool {
	faces := ix.ds.Records[i].Faces
	if len(faces) == 0 {
		return false
	}
	for _, j := range recs {
		if j == i {
			continue
		}
		o := ix.ds.Records[j]
		if !slices.ContainsFunc(faces, func(f errkb.Face) bool {
			return f.ID == o.ID || o.Extracted != nil && f.ID == o.Extracted.ID
		}) {
			return false
		}
	}
	return true
}

// errorAmong returns, of records whose evidence ties, the one that is the
// error the others are faces of, or nil when none is.
func (ix *Index) errorAmong(tied []*evidence) *evidence {
	recs := make([]int32, len(tied))
	for i, e := range tied {
		recs[i] = e.rec
	}
	if len(recs) < 2 {
		return tied[0]
	}
	// Faces of one error share its numeric code or list each other:
	// records that merely tie on common words are not faces.
	var i int32
	var ok bool
	if ix.sameNumericCode(recs) {
		i, ok = ix.errorOf(recs)
	} else {
		i, ok = ix.facesOf(recs)
	}
	if !ok {
		return nil
	}
	return tied[slices.Index(recs, i)]
}

// sameNumericCode reports whether every record of recs has one numeric code.
func (ix *Index) sameNumericCode(recs []int32) bool {
	first := ix.ds.Records[recs[0]].NumericCode
	for _, i := range recs {
		if n := ix.ds.Records[i].NumericCode; n == nil || first == nil || *n != *first {
			return false
		}
	}
	return true
}
