package templates

// PageSection is one section of a record's page below its header, in page
// order (explain.Sections decides which and in what order): the record's
// prose with the sources it cites, the facts derived from the code, and
// code.
type PageSection struct {
	ID       string
	Title    string
	Body     HTML       // the record's own prose, rendered
	Sources  []Citation // what Body cites, shown beneath it
	Claims   []Prose    // a curated record's prose, claim by claim, instead of Body
	Intro    string     // fixed words before the facts
	Facts    []Fact     // derived facts; the first FoldAfter show, the rest fold
	Items    []Prose    // the record's list entries (solutions, tips)
	Numbered bool
	Code     *CodeBlock
	// Broken is the compiler's messages for a code sample that does not
	// compile against the versions the dataset names; Fixed is the
	// compiling sample of the curated record FixedFrom, shown beside it.
	Broken    []string
	Fixed     *CodeBlock
	FixedFrom Link
}

// FoldAfter is how many facts of a list show before the rest fold away.
const FoldAfter = 3

// Shown is the facts shown at first.
func (s PageSection) Shown() []Fact {
	if len(s.Facts) > FoldAfter {
		return s.Facts[:FoldAfter]
	}
	return s.Facts
}

// Folded is the facts shown when the reader asks for the rest.
func (s PageSection) Folded() []Fact {
	if len(s.Facts) > FoldAfter {
		return s.Facts[FoldAfter:]
	}
	return nil
}

// Prose is one entry of a list the record wrote (a solution, a tip) and
// the sources it cites.
type Prose struct {
	Body    HTML
	Sources []Citation
}

// Citation is a source a curated claim rests on.
type Citation struct {
	URL  string
	Note string
}

// Fact is one fact derived from the code: our fixed words, the name or
// code as written, its place and link, code or text quoted under it, and
// its steps (a call chain, a condition's guards).
type Fact struct {
	Words string
	Lit   string
	Place string
	URL   string
	Code  *CodeBlock
	Quote string
	Steps []Fact
}

// FaceView is the same error seen from another place: its side ("server",
// "Go client"), package, name, its page, and the fact joining the two.
type FaceView struct {
	Side      string
	Package   string
	Name      string
	URL       string // its page; "" when the dataset lacks it
	Relation  string
	JoinPlace string
	JoinURL   string
}
