package errkb

// The record schema in one table. Validation (checkFields), the size caps
// (checkSizes, breaksLimits), the fast parser (plainKnownKeys), spilling
// (SpillableStrings) and the test-data generator all read knownFields, so
// a field added here is checked the same way on every path.

type fieldKind int

const (
	kindString fieldKind = iota
	kindInt
	kindStringList
	kindCallSites
)

func (k fieldKind) String() string {
	switch k {
	case kindInt:
		return "an integer"
	case kindStringList:
		return "an array of strings"
	case kindCallSites:
		return "an array of call-site objects (filePath, lineNumber, function, githubUrl)"
	default:
		return "a string"
	}
}

// textClass says which cap applies to a string field or to each entry of a
// list field.
type textClass int

const (
	classText textClass = iota
	classMarkdown
	classCode
	classTag
)

// limit is the cap of one string of the class and the word problems use.
func (c textClass) limit() (int, string) {
	switch c {
	case classMarkdown:
		return MaxMarkdownBytes, "Markdown"
	case classCode:
		return MaxCodeBytes, "code"
	case classTag:
		return MaxTagBytes, "tag"
	}
	return MaxTextBytes, "text"
}

type fieldSpec struct {
	name     string
	kind     fieldKind
	required bool
	class    textClass
	// spill marks prose and code, whose long values are worth moving out
	// of the heap.
	spill bool
	// str points at a string field's value (nil when a nullable one is
	// absent); list returns a list field's entries.
	str  func(r *Record) *string
	list func(r *Record) []string
}

// knownFields are the fields errkb reads. Required ones identify and title
// a record; the rest may be missing or null. Fields not listed here are
// kept and served as they are.
var knownFields = []fieldSpec{
	{name: "id", kind: kindString, required: true, str: func(r *Record) *string { return &r.ID }},
	{name: "repo", kind: kindString, required: true, str: func(r *Record) *string { return &r.Repo }},
	{name: "slug", kind: kindString, required: true, str: func(r *Record) *string { return &r.Slug }},
	{name: "errorCode", kind: kindString, required: true, str: func(r *Record) *string { return &r.ErrorCode }},
	{name: "errorMessage", kind: kindString, required: true, str: func(r *Record) *string { return &r.ErrorMessage }},
	{name: "severity", kind: kindString, required: true, str: func(r *Record) *string { return &r.Severity }},
	{name: "messagePattern", kind: kindString, spill: true, str: func(r *Record) *string { return &r.MessagePattern }},
	{name: "errorType", kind: kindString, str: func(r *Record) *string { return &r.ErrorType }},
	{name: "errorClass", kind: kindString, str: func(r *Record) *string { return &r.ErrorClass }},
	{name: "httpStatus", kind: kindInt},
	{name: "filePath", kind: kindString, str: func(r *Record) *string { return &r.FilePath }},
	{name: "lineNumber", kind: kindInt},
	{name: "sourceCode", kind: kindString, class: classCode, spill: true, str: func(r *Record) *string { return &r.SourceCode }},
	{name: "sourceCodeStart", kind: kindInt},
	{name: "sourceCodeEnd", kind: kindInt},
	{name: "githubUrl", kind: kindString, spill: true, str: func(r *Record) *string { return &r.GithubURL }},
	{name: "documentation", kind: kindString, class: classMarkdown, spill: true, str: func(r *Record) *string { return &r.Documentation }},
	{name: "triggerScenarios", kind: kindString, class: classMarkdown, spill: true, str: func(r *Record) *string { return &r.TriggerScenarios }},
	{name: "commonSituations", kind: kindString, class: classMarkdown, spill: true, str: func(r *Record) *string { return &r.CommonSituations }},
	{name: "solutions", kind: kindStringList, class: classMarkdown, spill: true, list: func(r *Record) []string { return r.Solutions }},
	{name: "exampleFix", kind: kindString, class: classCode, spill: true, str: func(r *Record) *string { return &r.ExampleFix }},
	{name: "handlingStrategy", kind: kindString, spill: true, str: func(r *Record) *string { return &r.HandlingStrategy }},
	{name: "validationCode", kind: kindString, class: classCode, spill: true, str: func(r *Record) *string { return &r.ValidationCode }},
	{name: "typeGuard", kind: kindString, class: classCode, spill: true, str: func(r *Record) *string { return &r.TypeGuard }},
	{name: "tryCatchPattern", kind: kindString, class: classCode, spill: true, str: func(r *Record) *string { return &r.TryCatchPattern }},
	{name: "preventionTips", kind: kindStringList, class: classMarkdown, spill: true, list: func(r *Record) []string { return r.PreventionTips }},
	{name: "tags", kind: kindStringList, class: classTag, list: func(r *Record) []string { return r.Tags }},
	{name: "backgroundTag", kind: kindString, str: func(r *Record) *string { return &r.BackgroundTag }},
	{name: "analyzedSha", kind: kindString, str: func(r *Record) *string { return &r.AnalyzedSha }},
	{name: "analyzedAt", kind: kindString, str: func(r *Record) *string { return &r.AnalyzedAt }},
	{name: "contentChangedAt", kind: kindString, str: func(r *Record) *string { return r.ContentChangedAt }},
	{name: "schemaVersion", kind: kindInt},
	{name: "numericCode", kind: kindInt},
	{name: "callSites", kind: kindCallSites},
	{name: "wraps", kind: kindStringList, list: func(r *Record) []string { return r.Wraps }},
	{name: "wrappedBy", kind: kindStringList, list: func(r *Record) []string { return r.WrappedBy }},
	{name: "goPackage", kind: kindString, str: func(r *Record) *string { return &r.GoPackage }},
}

// callSiteFields are the keys of one callSites entry; each is text.
var callSiteFields = []string{"filePath", "lineNumber", "function", "githubUrl"}

// knownFieldIndex maps each known field name to its position in knownFields.
var knownFieldIndex = func() map[string]int {
	m := make(map[string]int, len(knownFields))
	for i, f := range knownFields {
		m[f.name] = i
	}
	return m
}()

func isKnown(name string) bool {
	_, ok := knownFieldIndex[name]
	return ok
}

// SpillableStrings are the record's fields that hold prose or code, in the
// table's order: their long values are worth keeping outside the heap.
func SpillableStrings(r *Record) []*string {
	var ps []*string
	for _, f := range knownFields {
		if !f.spill {
			continue
		}
		if f.str != nil {
			if p := f.str(r); p != nil {
				ps = append(ps, p)
			}
			continue
		}
		l := f.list(r)
		for i := range l {
			ps = append(ps, &l[i])
		}
	}
	return ps
}
