package index

// The bleve mapping and the document each record becomes. Only prose and
// code text is searched in bleve; ids, codes, classes and identifiers are
// looked up in the tables (package tables).

import (
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/bleveshim"
	"github.com/errkb/errkb/index/internal/lex"
)

// Field names in the index. Ids, codes and classes are looked up in the
// tables (see tables.Tables: Record, ByCode, ByClass), not in bleve.
const (
	fieldRepo     = "repo"
	fieldCodeText = "codeText" // errorCode, errorClass, qualifiedName and aliases split into words
	fieldSeverity = "severity"
	fieldTags     = "tags"
	fieldMessage  = "message"
	fieldPattern  = "pattern"
	fieldDoc      = "documentation"
	fieldProse    = "prose" // triggers, situations, solutions, tips
	fieldCodeBody = "source"
)

// newMapping builds the whole mapping from two reusable field mappings:
// keywords for the enumerations that filter and facet, and text with the
// English analyzer for prose or the standard one for code (bleve's, with a
// faster tokenizer giving the same tokens: see package bleveshim). The document
// mapping is static so only the declared fields are indexed; bleve's
// dynamic default is several times slower to build.
//
// Only what search reads is kept: no field is stored and none has term
// vectors, since hits carry record numbers and marks.go marks words
// in the records themselves, and no query is a phrase; only the faceted
// fields keep doc values. At 100,000 records that halves the index.
func newMapping() mapping.IndexMapping {
	kw := bleve.NewKeywordFieldMapping()
	kw.Analyzer = keyword.Name
	kw.Store = false
	kw.IncludeTermVectors = false
	kw.IncludeInAll = false
	kw.DocValues = true // facets

	text := func(analyzer string) *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = analyzer
		f.Store = false
		f.IncludeTermVectors = false
		f.IncludeInAll = false
		f.DocValues = false
		return f
	}

	doc := bleve.NewDocumentStaticMapping()
	for _, name := range []string{fieldRepo, fieldSeverity, fieldTags} {
		doc.AddFieldMappingsAt(name, kw)
	}
	doc.AddFieldMappingsAt(fieldCodeText, text(bleveshim.CodeTextAnalyzer))
	doc.AddFieldMappingsAt(fieldMessage, text(bleveshim.ProseAnalyzer))
	doc.AddFieldMappingsAt(fieldPattern, text(bleveshim.CodeTextAnalyzer))
	doc.AddFieldMappingsAt(fieldDoc, text(bleveshim.ProseAnalyzer))
	doc.AddFieldMappingsAt(fieldProse, text(bleveshim.ProseAnalyzer))
	doc.AddFieldMappingsAt(fieldCodeBody, text(bleveshim.CodeTextAnalyzer))

	m := bleve.NewIndexMapping()
	m.DefaultMapping = doc
	m.DefaultAnalyzer = bleveshim.CodeTextAnalyzer
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
	// The names a record is known by: its code and class, the qualified
	// name pages head it with, and the older codes that still resolve.
	names := []string{lex.SplitIdentifier(r.ErrorCode), lex.SplitIdentifier(r.ErrorClass), lex.SplitIdentifier(r.QualifiedName)}
	for _, a := range r.Aliases {
		names = append(names, lex.SplitIdentifier(a))
	}
	return map[string]any{
		fieldRepo:     r.Repo,
		fieldCodeText: strings.Join(names, " "),
		fieldSeverity: r.Severity,
		fieldTags:     r.Tags,
		fieldMessage:  r.ErrorMessage,
		fieldPattern:  r.MessagePattern,
		fieldDoc:      r.Documentation,
		fieldProse:    strings.Join(prose, "\n"),
		fieldCodeBody: strings.Join([]string{r.ExampleFix, r.ValidationCode, r.TypeGuard, r.TryCatchPattern, r.SourceCode}, "\n"),
	}
}
