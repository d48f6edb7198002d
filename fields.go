package errkb

// The record schema in one table. Validation (checkFields), the size caps
// (checkSizes, breaksLimits), the fast parser (plainKnownKeys) and the
// text and shape a storage engine keeps (AppendTexts, AppendShape) all
// read knownFields, so a field added here is checked, parsed and stored
// the same way on every path; TestFieldTableMatchesRecord holds the table
// to Record's JSON fields, which the test-data generator writes. walk.go
// walks a record's values in the table's order; schema.go declares the
// types.
//
// Adding a field: give Record (or the element type) the Go field with its
// JSON name, and add its row here with the constructor of its Go type:
// str, optStr (*string), num, optNum (*int), strs ([]string), or objs for
// an array of objects, whose elements get a table of their own like
// callSiteFields. Nothing else names a field.

// knownFields are the fields errkb reads. Fields not listed here are kept
// and served as they are.
var knownFields = []field[Record]{
	str("id", required, func(r *Record) *string { return &r.ID }),
	str("repo", required|shared, func(r *Record) *string { return &r.Repo }),
	str("slug", required, func(r *Record) *string { return &r.Slug }),
	str("errorCode", 0, func(r *Record) *string { return &r.ErrorCode }),
	str("errorMessage", required, func(r *Record) *string { return &r.ErrorMessage }),
	str("severity", required|shared, func(r *Record) *string { return &r.Severity }),
	str("messagePattern", bulk, func(r *Record) *string { return &r.MessagePattern }),
	str("errorType", shared, func(r *Record) *string { return &r.ErrorType }),
	str("errorClass", 0, func(r *Record) *string { return &r.ErrorClass }),
	optNum("httpStatus", 0, func(r *Record) **int { return &r.HTTPStatus }),
	str("filePath", 0, func(r *Record) *string { return &r.FilePath }),
	num("lineNumber", 0, func(r *Record) *int { return &r.LineNumber }),
	str("sourceCode", code|bulk, func(r *Record) *string { return &r.SourceCode }),
	num("sourceCodeStart", 0, func(r *Record) *int { return &r.SourceCodeStart }),
	num("sourceCodeEnd", 0, func(r *Record) *int { return &r.SourceCodeEnd }),
	str("githubUrl", bulk, func(r *Record) *string { return &r.GithubURL }),
	str("documentation", markdown|bulk, func(r *Record) *string { return &r.Documentation }),
	str("triggerScenarios", markdown|bulk, func(r *Record) *string { return &r.TriggerScenarios }),
	str("commonSituations", markdown|bulk, func(r *Record) *string { return &r.CommonSituations }),
	strs("solutions", markdown|bulk, func(r *Record) *[]string { return &r.Solutions }),
	str("exampleFix", code|bulk, func(r *Record) *string { return &r.ExampleFix }),
	str("handlingStrategy", bulk, func(r *Record) *string { return &r.HandlingStrategy }),
	str("validationCode", code|bulk, func(r *Record) *string { return &r.ValidationCode }),
	str("typeGuard", code|bulk, func(r *Record) *string { return &r.TypeGuard }),
	str("tryCatchPattern", code|bulk, func(r *Record) *string { return &r.TryCatchPattern }),
	strs("preventionTips", markdown|bulk, func(r *Record) *[]string { return &r.PreventionTips }),
	strs("tags", tag|shared, func(r *Record) *[]string { return &r.Tags }),
	str("backgroundTag", shared, func(r *Record) *string { return &r.BackgroundTag }),
	str("analyzedSha", shared, func(r *Record) *string { return &r.AnalyzedSha }),
	str("analyzedAt", 0, func(r *Record) *string { return &r.AnalyzedAt }),
	optStr("contentChangedAt", 0, func(r *Record) **string { return &r.ContentChangedAt }),
	num("schemaVersion", 0, func(r *Record) *int { return &r.SchemaVersion }),
	optNum("numericCode", 0, func(r *Record) **int { return &r.NumericCode }),
	objs("callSites", 0, "call-site", func(r *Record) *[]CallSite { return &r.CallSites }, callSiteFields),
	strs("wraps", 0, func(r *Record) *[]string { return &r.Wraps }),
	strs("wrappedBy", 0, func(r *Record) *[]string { return &r.WrappedBy }),
	str("goPackage", shared, func(r *Record) *string { return &r.GoPackage }),
	str("qualifiedName", 0, func(r *Record) *string { return &r.QualifiedName }),
	strs("aliases", 0, func(r *Record) *[]string { return &r.Aliases }),
	flag("internal", 0, func(r *Record) *bool { return &r.Internal }),
	str("surface", shared, func(r *Record) *string { return &r.Surface }),
	objs("closes", 0, "closing", func(r *Record) *[]Closing { return &r.Closes }, closingFields),
	objs("faces", 0, "face", func(r *Record) *[]Face { return &r.Faces }, faceFields),
	objs("conditions", 0, "condition", func(r *Record) *[]Condition { return &r.Conditions }, conditionFields),
	objs("returnedBy", 0, "entry", func(r *Record) *[]Entry { return &r.ReturnedBy }, entryFields),
	objs("handledAt", 0, "check", func(r *Record) *[]Check { return &r.HandledAt }, checkEntryFields),
	objs("tests", 0, "test", func(r *Record) *[]Test { return &r.Tests }, recordTestFields),
	objs("docs", 0, "doc", func(r *Record) *[]Doc { return &r.Docs }, docFields),
	obj("history", 0, "history", func(r *Record) **History { return &r.History }, historyFields),
	objs("sources", 0, "source", func(r *Record) *[]Citation { return &r.Sources }, citationFields),
	obj("extracted", 0, "extracted", func(r *Record) **Extracted { return &r.Extracted }, extractedFields),
}

// callSiteFields are the keys of one callSites entry. Their strings are
// links and paths that only pages read.
var callSiteFields = []field[CallSite]{
	str("filePath", bulk, func(c *CallSite) *string { return &c.FilePath }),
	num("lineNumber", 0, func(c *CallSite) *int { return &c.LineNumber }),
	str("function", bulk, func(c *CallSite) *string { return &c.Function }),
	str("githubUrl", bulk, func(c *CallSite) *string { return &c.GithubURL }),
}

// The tables of the objects in the fields above. Their paths, functions
// and links are read by pages only (bulk); code and doc comments may be
// long (code).

var placeFields = []field[Place]{
	str("filePath", bulk, func(p *Place) *string { return &p.FilePath }),
	num("lineNumber", 0, func(p *Place) *int { return &p.LineNumber }),
	str("githubUrl", bulk, func(p *Place) *string { return &p.GithubURL }),
}

var closingFields = []field[Closing]{
	str("call", shared, func(c *Closing) *string { return &c.Call }),
	str("function", bulk, func(c *Closing) *string { return &c.Function }),
	str("filePath", bulk, func(c *Closing) *string { return &c.FilePath }),
	num("lineNumber", 0, func(c *Closing) *int { return &c.LineNumber }),
	str("githubUrl", bulk, func(c *Closing) *string { return &c.GithubURL }),
}

var faceFields = []field[Face]{
	str("id", 0, func(f *Face) *string { return &f.ID }),
	str("side", shared, func(f *Face) *string { return &f.Side }),
	str("package", shared, func(f *Face) *string { return &f.Package }),
	str("name", 0, func(f *Face) *string { return &f.Name }),
	str("relation", bulk, func(f *Face) *string { return &f.Relation }),
	str("filePath", bulk, func(f *Face) *string { return &f.FilePath }),
	num("lineNumber", 0, func(f *Face) *int { return &f.LineNumber }),
	str("githubUrl", bulk, func(f *Face) *string { return &f.GithubURL }),
}

var conditionFields = []field[Condition]{
	str("function", bulk, func(c *Condition) *string { return &c.Function }),
	str("filePath", bulk, func(c *Condition) *string { return &c.FilePath }),
	num("lineNumber", 0, func(c *Condition) *int { return &c.LineNumber }),
	str("githubUrl", bulk, func(c *Condition) *string { return &c.GithubURL }),
	flag("unconditional", 0, func(c *Condition) *bool { return &c.Unconditional }),
	objs("guards", 0, "guard", func(c *Condition) *[]Guard { return &c.Guards }, guardFields),
	objs("settings", 0, "setting", func(c *Condition) *[]Setting { return &c.Settings }, settingFields),
}

var guardFields = []field[Guard]{
	str("expr", code|bulk, func(g *Guard) *string { return &g.Expr }),
	str("kind", shared, func(g *Guard) *string { return &g.Kind }),
	str("filePath", bulk, func(g *Guard) *string { return &g.FilePath }),
	num("lineNumber", 0, func(g *Guard) *int { return &g.LineNumber }),
	str("githubUrl", bulk, func(g *Guard) *string { return &g.GithubURL }),
}

var settingFields = []field[Setting]{
	str("field", bulk, func(s *Setting) *string { return &s.Field }),
	str("type", bulk, func(s *Setting) *string { return &s.Type }),
	str("doc", code|bulk, func(s *Setting) *string { return &s.Doc }),
	str("filePath", bulk, func(s *Setting) *string { return &s.FilePath }),
	num("lineNumber", 0, func(s *Setting) *int { return &s.LineNumber }),
	str("githubUrl", bulk, func(s *Setting) *string { return &s.GithubURL }),
	str("configKey", bulk, func(s *Setting) *string { return &s.ConfigKey }),
	obj("configAt", 0, "place", func(s *Setting) **Place { return &s.ConfigAt }, placeFields),
}

var entryFields = []field[Entry]{
	str("function", bulk, func(e *Entry) *string { return &e.Function }),
	str("package", shared, func(e *Entry) *string { return &e.Package }),
	str("filePath", bulk, func(e *Entry) *string { return &e.FilePath }),
	num("lineNumber", 0, func(e *Entry) *int { return &e.LineNumber }),
	str("githubUrl", bulk, func(e *Entry) *string { return &e.GithubURL }),
	objs("chain", 0, "call-site", func(e *Entry) *[]CallSite { return &e.Chain }, callSiteFields),
}

var checkEntryFields = []field[Check]{
	str("function", bulk, func(c *Check) *string { return &c.Function }),
	str("check", code|bulk, func(c *Check) *string { return &c.Check }),
	str("code", code|bulk, func(c *Check) *string { return &c.Code }),
	num("codeStart", 0, func(c *Check) *int { return &c.CodeStart }),
	num("codeEnd", 0, func(c *Check) *int { return &c.CodeEnd }),
	str("filePath", bulk, func(c *Check) *string { return &c.FilePath }),
	num("lineNumber", 0, func(c *Check) *int { return &c.LineNumber }),
	str("githubUrl", bulk, func(c *Check) *string { return &c.GithubURL }),
}

var recordTestFields = []field[Test]{
	str("name", bulk, func(t *Test) *string { return &t.Name }),
	str("package", shared, func(t *Test) *string { return &t.Package }),
	str("assertion", code|bulk, func(t *Test) *string { return &t.Assertion }),
	str("filePath", bulk, func(t *Test) *string { return &t.FilePath }),
	num("lineNumber", 0, func(t *Test) *int { return &t.LineNumber }),
	str("githubUrl", bulk, func(t *Test) *string { return &t.GithubURL }),
}

var docFields = []field[Doc]{
	str("of", bulk, func(d *Doc) *string { return &d.Of }),
	str("text", code|bulk, func(d *Doc) *string { return &d.Text }),
	str("filePath", bulk, func(d *Doc) *string { return &d.FilePath }),
	num("lineNumber", 0, func(d *Doc) *int { return &d.LineNumber }),
	str("githubUrl", bulk, func(d *Doc) *string { return &d.GithubURL }),
}

var historyFields = []field[History]{
	str("firstVersion", 0, func(h *History) *string { return &h.FirstVersion }),
	str("removedIn", 0, func(h *History) *string { return &h.RemovedIn }),
	objs("messages", 0, "message", func(h *History) *[]OldMessage { return &h.Messages }, oldMessageFields),
	str("oldestAnalyzed", 0, func(h *History) *string { return &h.OldestAnalyzed }),
	str("messageSince", 0, func(h *History) *string { return &h.MessageSince }),
}

var oldMessageFields = []field[OldMessage]{
	str("message", 0, func(m *OldMessage) *string { return &m.Message }),
	strs("versions", 0, func(m *OldMessage) *[]string { return &m.Versions }),
}

var citationFields = []field[Citation]{
	str("url", bulk, func(c *Citation) *string { return &c.URL }),
	str("note", bulk, func(c *Citation) *string { return &c.Note }),
}

// extractedFields are the keys of a merged record's extracted facts
// (see Extracted): the record's own rows for the same facts.
var extractedFields = []field[Extracted]{
	str("id", 0, func(e *Extracted) *string { return &e.ID }),
	str("slug", 0, func(e *Extracted) *string { return &e.Slug }),
	str("errorCode", 0, func(e *Extracted) *string { return &e.ErrorCode }),
	str("version", shared, func(e *Extracted) *string { return &e.Version }),
	optNum("numericCode", 0, func(e *Extracted) **int { return &e.NumericCode }),
	optNum("httpStatus", 0, func(e *Extracted) **int { return &e.HTTPStatus }),
	str("errorClass", 0, func(e *Extracted) *string { return &e.ErrorClass }),
	str("goPackage", shared, func(e *Extracted) *string { return &e.GoPackage }),
	str("filePath", bulk, func(e *Extracted) *string { return &e.FilePath }),
	num("lineNumber", 0, func(e *Extracted) *int { return &e.LineNumber }),
	str("githubUrl", bulk, func(e *Extracted) *string { return &e.GithubURL }),
	objs("callSites", 0, "call-site", func(e *Extracted) *[]CallSite { return &e.CallSites }, callSiteFields),
	str("qualifiedName", 0, func(e *Extracted) *string { return &e.QualifiedName }),
	strs("aliases", 0, func(e *Extracted) *[]string { return &e.Aliases }),
	str("surface", shared, func(e *Extracted) *string { return &e.Surface }),
	objs("faces", 0, "face", func(e *Extracted) *[]Face { return &e.Faces }, faceFields),
	objs("conditions", 0, "condition", func(e *Extracted) *[]Condition { return &e.Conditions }, conditionFields),
	objs("returnedBy", 0, "entry", func(e *Extracted) *[]Entry { return &e.ReturnedBy }, entryFields),
	objs("handledAt", 0, "check", func(e *Extracted) *[]Check { return &e.HandledAt }, checkEntryFields),
	objs("tests", 0, "test", func(e *Extracted) *[]Test { return &e.Tests }, recordTestFields),
	objs("docs", 0, "doc", func(e *Extracted) *[]Doc { return &e.Docs }, docFields),
	objs("differs", 0, "difference", func(e *Extracted) *[]Difference { return &e.Differs }, differenceFields),
}

var differenceFields = []field[Difference]{
	str("field", shared, func(d *Difference) *string { return &d.Field }),
	str("curated", bulk, func(d *Difference) *string { return &d.Curated }),
	str("extracted", bulk, func(d *Difference) *string { return &d.Extracted }),
	str("githubUrl", bulk, func(d *Difference) *string { return &d.GithubURL }),
}

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

// KnownKeys lists every key errkb reads, each once: the record's fields in
// the table's order, then those of the elements of its arrays of objects
// that the record itself does not have. A storage engine that keeps the
// raw JSON can hold these keys once instead of in every record.
func KnownKeys() []string {
	var keys []string
	seen := map[string]bool{}
	var add func(fs []fieldInfo)
	add = func(fs []fieldInfo) {
		for _, f := range fs {
			if !seen[f.name] {
				seen[f.name] = true
				keys = append(keys, f.name)
			}
		}
		for _, f := range fs {
			if f.kind == kindObjects || f.kind == kindObject {
				add(f.elems.fields)
			}
		}
	}
	add(infos(knownFields))
	return keys
}
