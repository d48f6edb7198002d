// Package tables holds the lookup tables that query understanding reads
// besides bleve: records by id, code and class, identifiers, templates,
// every record's words with their rarity, the vocabulary that corrects
// typos, and the compiled message patterns. They are computed one record
// at a time while the index is built (Part), joined into one file of flat
// arrays (Assemble, laid out by package tabfile) and read back without
// decoding (Read), from memory or from a read-only mapping of the file.
//
// Every key is spelled by package lex, the same rules queries are read
// with.
package tables
