package tables

import (
	"sync"
	"unicode/utf8"
)

// editAutomaton matches the words within d edits of an ASCII word, a
// transposition of neighbours counting as one edit (the restricted
// Damerau-Levenshtein distance, as vellum's Levenshtein automata with
// transpositions count, in characters). It runs over the vocabulary FST
// as vellum.Automaton. vellum's automaton is built whole before a search
// (a kilobyte per possible state, up to a megabyte for a long word, for
// every unknown word of every query); this one computes a row of the edit
// table per FST transition the search takes, in a reused arena.
//
// A state is an offset into arena holding the row of the previous
// character, the row of the current one, the current character and the
// UTF-8 continuation bytes still expected. A non-ASCII character of a
// vocabulary word counts as one character that equals none of the query's.
type editAutomaton struct {
	word  string
	d     uint8
	arena []uint8
}

// nonASCII stands for any non-ASCII character: the query has none.
const nonASCII = 0x80

var editAutomata = sync.Pool{New: func() any { return &editAutomaton{} }}

// newEditAutomaton returns an automaton for word (ASCII) within d edits;
// release it with put.
func newEditAutomaton(word string, d int) *editAutomaton {
	a := editAutomata.Get().(*editAutomaton)
	a.word, a.d, a.arena = word, uint8(d), a.arena[:0]
	return a
}

func (a *editAutomaton) put() {
	if cap(a.arena) <= 1<<20 {
		editAutomata.Put(a)
	}
}

func (a *editAutomaton) stride() int { return 2*(len(a.word)+1) + 2 }

// row returns the current row of state s, prev the previous one.
func (a *editAutomaton) rows(s int) (prev, row []uint8, char, pending uint8) {
	n := len(a.word) + 1
	st := a.arena[s : s+a.stride()]
	return st[:n], st[n : 2*n], st[2*n], st[2*n+1]
}

func (a *editAutomaton) alloc() int {
	s := len(a.arena)
	a.arena = append(a.arena, make([]uint8, a.stride())...)
	return s
}

// Start is the empty prefix: j edits to reach the query's first j letters.
func (a *editAutomaton) Start() int {
	s := a.alloc()
	prev, row, _, _ := a.rows(s)
	for j := range row {
		row[j] = a.sat(j)
		prev[j] = a.d + 1
	}
	return s
}

func (a *editAutomaton) sat(v int) uint8 { return uint8(min(v, int(a.d)+1)) }

func (a *editAutomaton) IsMatch(s int) bool {
	_, row, _, pending := a.rows(s)
	return pending == 0 && row[len(a.word)] <= a.d
}

// distance is the edit distance of state s's word, when it matches.
func (a *editAutomaton) distance(s int) int {
	_, row, _, _ := a.rows(s)
	return int(row[len(a.word)])
}

func (a *editAutomaton) CanMatch(s int) bool {
	_, row, _, _ := a.rows(s)
	for _, v := range row {
		if v <= a.d {
			return true
		}
	}
	return false
}

func (a *editAutomaton) WillAlwaysMatch(int) bool { return false }

// Accept takes one byte of a vocabulary word.
func (a *editAutomaton) Accept(s int, b byte) int {
	_, _, _, pending := a.rows(s)
	t := a.alloc()
	prev, row, char, _ := a.rows(s)
	nprev, nrow, _, _ := a.rows(t)
	st := a.arena[t : t+a.stride()]
	n := len(a.word) + 1
	switch {
	case pending > 0 || b >= utf8.RuneSelf && !utf8.RuneStart(b):
		// Inside a character: nothing read yet.
		copy(nprev, prev)
		copy(nrow, row)
		st[2*n] = char
		if pending > 0 {
			pending--
		}
		st[2*n+1] = pending
		if pending == 0 && b >= utf8.RuneSelf {
			a.step(prev, row, char, nonASCII, nprev, nrow)
			st[2*n] = nonASCII
		}
		return t
	case b >= utf8.RuneSelf:
		// A character's first byte: the rest follow.
		copy(nprev, prev)
		copy(nrow, row)
		st[2*n] = char
		st[2*n+1] = uint8(utf8Len(b) - 1)
		return t
	}
	a.step(prev, row, char, b, nprev, nrow)
	st[2*n] = b
	st[2*n+1] = 0
	return t
}

// step computes the row after character c, read after last whose row is
// row (and before it prev), into nprev and nrow.
func (a *editAutomaton) step(prev, row []uint8, last, c uint8, nprev, nrow []uint8) {
	copy(nprev, row)
	nrow[0] = a.sat(int(row[0]) + 1)
	for j := 1; j <= len(a.word); j++ {
		cost := 1
		if a.word[j-1] == c {
			cost = 0
		}
		v := min(int(row[j])+1, int(nrow[j-1])+1, int(row[j-1])+cost)
		if j >= 2 && c == a.word[j-2] && last == a.word[j-1] && c != last {
			v = min(v, int(prev[j-2])+1)
		}
		nrow[j] = a.sat(v)
	}
}

func utf8Len(b byte) int {
	switch {
	case b >= 0xF0:
		return 4
	case b >= 0xE0:
		return 3
	}
	return 2
}
