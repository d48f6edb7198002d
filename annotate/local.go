package annotate

import (
	"context"
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/web/siteurl"
)

// Identifier names the record a log line holds with /lookup's confidence;
// *index.Index satisfies it (Index.LookupLine: Lookup without the typo
// correction a printed message never needs, and without the text search
// when the evidence decides alone).
type Identifier interface {
	LookupLine(ctx context.Context, text string) (*errkb.Record, string, error)
}

// Local matches lines against an index on this machine.
type Local struct {
	ix   Identifier
	base string
}

// NewLocal matches with ix; page URLs start with baseURL ("" leaves them
// site paths).
func NewLocal(ix Identifier, baseURL string) *Local {
	return &Local{ix: ix, base: strings.TrimRight(baseURL, "/")}
}

// Match implements Matcher.
func (l *Local) Match(ctx context.Context, line string) (Match, bool, error) {
	r, _, err := l.ix.LookupLine(ctx, line)
	if err != nil || r == nil {
		return Match{}, false, err
	}
	return Match{Code: name(r.ErrorCode, r.ErrorClass, r.Slug), URL: l.base + siteurl.Record(r.Repo, r.Slug)}, true, nil
}

// name is what names an error in an annotation: its code, else its class,
// else its slug.
func name(code, class, slug string) string {
	switch {
	case code != "":
		return code
	case class != "":
		return class
	}
	return slug
}
