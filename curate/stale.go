package curate

import (
	"fmt"
	"strconv"

	"github.com/errkb/errkb"
)

// Drift lists the facts a curated record was written against that the
// extracted record of the same error no longer has: the message and the
// location (file and line), and the identity fields the curated record
// repeats (class, kind, pattern, numeric code, HTTP status, package). An
// empty list means the record still explains the error as the extractor
// sees it, whatever the version.
func Drift(cur, ext *errkb.Record) []string {
	var out []string
	diff := func(field, c, e string) {
		if c != e {
			out = append(out, fmt.Sprintf("%s: written against %q, extracted %q", field, c, e))
		}
	}
	diff("errorMessage", cur.ErrorMessage, ext.ErrorMessage)
	diff("filePath", cur.FilePath, ext.FilePath)
	if cur.LineNumber != ext.LineNumber {
		out = append(out, fmt.Sprintf("lineNumber: written against %d, extracted %d", cur.LineNumber, ext.LineNumber))
	}
	// Identity fields are compared only when the curated record repeats
	// them: it may leave them to the extractor.
	opt := func(field, c, e string) {
		if c != "" {
			diff(field, c, e)
		}
	}
	opt("errorClass", cur.ErrorClass, ext.ErrorClass)
	opt("errorType", cur.ErrorType, ext.ErrorType)
	opt("messagePattern", cur.MessagePattern, ext.MessagePattern)
	opt("goPackage", cur.GoPackage, ext.GoPackage)
	optInt := func(field string, c, e *int) {
		if c != nil {
			diff(field, strconv.Itoa(*c), intString(e))
		}
	}
	optInt("numericCode", cur.NumericCode, ext.NumericCode)
	optInt("httpStatus", cur.HTTPStatus, ext.HTTPStatus)
	return out
}

func intString(p *int) string {
	if p == nil {
		return "null"
	}
	return strconv.Itoa(*p)
}
