package tables

// WordPostings invert the tables' word lists: for each word of the
// vocabulary, the records whose message (MsgWords) or names (CodeWords)
// hold it, in record order. They let a query find and weigh the records
// sharing its words without asking bleve, whose cost grows with every
// record a common word matches.
type WordPostings struct {
	msgOff, codeOff []uint32 // by word number; postings of word w are [off[w], off[w+1])
	msg, code       []int32
}

// Of returns the records holding word number w (see Vocab.Number) in
// their message and in their names.
func (p *WordPostings) Of(w int) (msg, code []int32) {
	return p.msg[p.msgOff[w]:p.msgOff[w+1]], p.code[p.codeOff[w]:p.codeOff[w+1]]
}

// WordPostings returns the word postings, inverting the word lists on
// first use: a restart maps the tables without per-record work, and the
// first query pays for this once (about a 100th of a second at 100,000
// records).
func (t *Tables) WordPostings() *WordPostings {
	t.postingsOnce.Do(func() {
		n := t.words.words.Len()
		p := &WordPostings{}
		p.msgOff, p.msg = invert(t.msgW, n)
		p.codeOff, p.code = invert(t.codeW, n)
		t.wordPost = p
	})
	return t.wordPost
}

// invert turns per-record word lists into per-word record lists.
func invert(l wordLists, words int) ([]uint32, []int32) {
	off := make([]uint32, words+1)
	for _, w := range l.ids {
		off[w+1]++
	}
	for i := 1; i <= words; i++ {
		off[i] += off[i-1]
	}
	next := make([]uint32, words)
	copy(next, off[:words])
	recs := make([]int32, len(l.ids))
	for rec := 0; rec+1 < len(l.off); rec++ {
		for _, w := range l.ids[l.off[rec]:l.off[rec+1]] {
			recs[next[w]] = int32(rec)
			next[w]++
		}
	}
	return off, recs
}
