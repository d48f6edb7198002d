// Package lex holds the lexical rules that the lookup tables are built
// with and that queries are read with: how text splits into words, how a
// message's variable parts are told from its words, how codes and
// identifiers are folded to one key. A key the build writes is found only
// if a query spells it the same way, so both sides call these functions
// and no other copy of the rules exists.
package lex
