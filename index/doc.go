// Package index answers searches and lookups over one dataset of error
// records. It owns the bleve mapping and the document each record becomes
// (mapping.go), building the index (build.go), keeping it on disk between
// starts (open.go, with package persist), and turning pasted text into a
// ranked answer. It returns its own Hit and Result types, so callers never
// depend on bleve.
//
// # The pipeline
//
// Search and Lookup run one pipeline: a chain of functions from one type
// to the next, a stage to a file or to a few files that name it in their
// first comment. Each stage reads what the stages before it made and
// calls none of their functions. One record's evidence (score.go: its
// parts, weights and tiers) is made once and completed on the way: the
// candidates stage fills in what the lookup tables say of the record, the
// evidence stage what the query's words say, and the stages after it only
// read it.
//
//	stage           in -> out                             files
//	understanding   string -> *understood                 understand.go
//	candidates      *understood -> *candidates            candidates.go (the tables' evidence: corrections,
//	                                                        patterns, projects; what the text search is asked)
//	                                                      named.go (ids, codes, classes, identifiers, near codes)
//	                                                      faces.go (which of one error's faces is the error)
//	                                                      textsearch.go (bleve's text search: the plain path)
//	                                                      cover.go (the same from the word postings: the fast path)
//	evidence        *candidates -> []*evidence            evidence.go
//	ranking         []*evidence -> ranked []*evidence     rank.go
//	decision        ranked -> one confident match or none decide.go, decide_nested.go (Lookup only)
//	answer          -> *Result or *LookupResult           search.go (the page, facets), lookup.go (match,
//	                                                        alternatives), marks.go (highlights), suggest.go
//	                                                        (did-you-mean)
//
// Search runs understanding, candidates, evidence and ranking, then
// answers with a page of hits; Lookup runs the same four, then the
// decision, and answers with the match or the candidates to choose from.
// LookupLine (lookupline.go), for a line a program printed, runs the
// candidates stage on the lookup tables alone, without the text search,
// and the rest as Lookup does; when only the text search could tell, it
// runs Lookup. A search with filters and no text lists the records under
// the filters instead (filterlist.go), outside the pipeline.
//
// # Packages below
//
// Each fast path and each format lives in a package of its own under
// index/internal, behind the contract of the plain path it stands in for,
// and is tested against it:
//
//	lex        the lexical rules the tables are built with and queries read with
//	pattern    the message-pattern engine: parse, compile, weigh, match
//	tabfile    the lookup tables' file format: named flat arrays, read without decoding
//	tables     the lookup tables: one record's part, assembled, read back; the typo vocabulary
//	bleveshim  where errkb reaches into bleve: the tokenizer, the term cache, counts from
//	           bitmaps, the tracking of a build's writes
//	persist    the index folder on disk: manifest and checksums, atomic builds, prebuilt
//	           seeds, merging, the mapped tables file
//
// Imports run one way: index imports them all; tables imports pattern,
// tabfile and lex; pattern imports tabfile and lex; none imports index.
package index
