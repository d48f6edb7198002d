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
	str("errorCode", required, func(r *Record) *string { return &r.ErrorCode }),
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
}

// callSiteFields are the keys of one callSites entry. Their strings are
// links and paths that only pages read.
var callSiteFields = []field[CallSite]{
	str("filePath", bulk, func(c *CallSite) *string { return &c.FilePath }),
	num("lineNumber", 0, func(c *CallSite) *int { return &c.LineNumber }),
	str("function", bulk, func(c *CallSite) *string { return &c.Function }),
	str("githubUrl", bulk, func(c *CallSite) *string { return &c.GithubURL }),
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
			if f.kind == kindObjects {
				add(f.elems.fields)
			}
		}
	}
	add(infos(knownFields))
	return keys
}
