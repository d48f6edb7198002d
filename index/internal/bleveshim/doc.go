// Package bleveshim holds the places where errkb reaches past bleve's
// public API into its analysis and into scorch, each to do faster what
// the public API does, with the same result:
//
//   - the word tokenizer gives the tokens of bleve's unicode tokenizer,
//     without running its Unicode state machine over ASCII text
//     (tokenizer.go; the analyzers the mapping names are registered here);
//   - the term cache serves bleve's term field readers from compact
//     copies of long postings, so that scoring a few candidates does not
//     walk every posting before them (termcache.go);
//   - CountMatches counts a text query's matches from the postings'
//     bitmaps instead of visiting every match (count.go);
//   - DiskWrites follows the unsafe batches of a build on disk until
//     scorch has written them (diskwrites.go).
//
// Each has a test that compares it with bleve's own answer: the tokens,
// the postings read, the counts. Package index decides when to use them
// and falls back to bleve's public API where they decline.
package bleveshim
