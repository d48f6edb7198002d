// Package pattern is the message-pattern engine: it turns the way a
// record's message is written into a matcher, and runs the matchers
// against a query's text.
//
// A message pattern is written in one of three ways: literal text (the
// seed's "consumer is offline"), an RE2 expression with groups such as
// "(.+)" or "\d+", or a template with printf verbs ("%s", "%d", "%q", "%w")
// or "{name}" placeholders. Every pattern is parsed when the index is
// built (OfRecords, Compile) and becomes a case-insensitive Go regexp
// (linear time, so no pasted text can make it slow), compiled once, the
// first time a query holds all its words (Set): a compiled regexp weighs
// about 2.4 KB, and most patterns never run, so compiling all 10,000
// records' patterns at start-up cost 47 MB and a quarter of a second for
// nothing. Each pattern carries how much literal text it pins down: a
// pattern found in a query is evidence in proportion to that (Hit), and
// "(.+)" alone, which matches anything, is no evidence at all.
//
// The lookup tables (package tables) store the compiled patterns; this
// package does not know their file.
package pattern
