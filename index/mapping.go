// Package index owns full-text search over records: the bleve mapping,
// building the index and keeping it on disk between starts (persist.go),
// turning user text into queries, ranking, and deciding when a lookup is
// confident. It returns its own Hit and Result types so callers never
// depend on bleve.
package index

import (
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/errkb/errkb"
)

// Field names in the index.
const (
	fieldID       = "id"
	fieldRepo     = "repo"
	fieldCode     = "code"     // normalized errorCode, exact
	fieldCodeText = "codeText" // errorCode and errorClass split into words
	fieldClass    = "class"    // lower-case errorClass, exact
	fieldSeverity = "severity"
	fieldTags     = "tags"
	fieldMessage  = "message"
	fieldPattern  = "pattern"
	fieldDoc      = "documentation"
	fieldProse    = "prose" // triggers, situations, solutions, tips
	fieldCodeBody = "source"
)

// newMapping builds the whole mapping from three reusable field mappings:
// keywords for identifiers and enumerations, English for prose, and the
// standard analyzer for code. The document mapping is static so only the
// declared fields are indexed; bleve's dynamic default is several times
// slower to build.
func newMapping() mapping.IndexMapping {
	kw := bleve.NewKeywordFieldMapping()
	kw.Analyzer = keyword.Name
	kw.IncludeInAll = false

	text := func(analyzer string, store bool) *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = analyzer
		f.Store = store
		f.IncludeTermVectors = store // highlights need term vectors
		f.IncludeInAll = false
		f.DocValues = false
		return f
	}

	doc := bleve.NewDocumentStaticMapping()
	for _, name := range []string{fieldID, fieldRepo, fieldCode, fieldClass, fieldSeverity, fieldTags} {
		doc.AddFieldMappingsAt(name, kw)
	}
	doc.AddFieldMappingsAt(fieldCodeText, text(standard.Name, false))
	doc.AddFieldMappingsAt(fieldMessage, text(en.AnalyzerName, true))
	doc.AddFieldMappingsAt(fieldPattern, text(standard.Name, false))
	doc.AddFieldMappingsAt(fieldDoc, text(en.AnalyzerName, true))
	doc.AddFieldMappingsAt(fieldProse, text(en.AnalyzerName, false))
	doc.AddFieldMappingsAt(fieldCodeBody, text(standard.Name, false))

	m := bleve.NewIndexMapping()
	m.DefaultMapping = doc
	m.DefaultAnalyzer = standard.Name
	m.IndexDynamic = false
	m.StoreDynamic = false
	m.DocValuesDynamic = false
	return m
}

// document is what gets indexed for one record.
func document(r *errkb.Record) map[string]any {
	prose := []string{r.TriggerScenarios, r.CommonSituations}
	prose = append(prose, r.Solutions...)
	prose = append(prose, r.PreventionTips...)
	return map[string]any{
		fieldID:       r.ID,
		fieldRepo:     r.Repo,
		fieldCode:     NormalizeCode(r.ErrorCode),
		fieldCodeText: splitIdentifier(r.ErrorCode) + " " + splitIdentifier(r.ErrorClass),
		fieldClass:    strings.ToLower(r.ErrorClass),
		fieldSeverity: r.Severity,
		fieldTags:     r.Tags,
		fieldMessage:  r.ErrorMessage,
		fieldPattern:  r.MessagePattern,
		fieldDoc:      r.Documentation,
		fieldProse:    strings.Join(prose, "\n"),
		fieldCodeBody: strings.Join([]string{r.ExampleFix, r.ValidationCode, r.TypeGuard, r.TryCatchPattern, r.SourceCode}, "\n"),
	}
}
