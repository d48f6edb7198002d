package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"unicode"

	"github.com/errkb/errkb"
)

// gen makes the queries of one record, knowing every record of every
// project: a text names a record only when no other record's message or
// name is that text.
type gen struct {
	rng      *rand.Rand
	byID     map[string]*errkb.Record
	msgCount map[string]int // normalized message templates, over all projects
	names    map[string]int // the names code uses, over all projects
	msgs     []string       // every template, lower case, for fragments
}

func newGen(recs []*errkb.Record) *gen {
	g := &gen{byID: map[string]*errkb.Record{}, msgCount: map[string]int{}, names: map[string]int{}}
	for _, r := range recs {
		g.byID[r.ID] = r
	}
	for _, r := range recs {
		t := g.template(r)
		g.msgCount[normalize(t)]++
		if s := stripClient(t); s != t {
			g.msgCount[normalize(s)]++
		}
		g.msgs = append(g.msgs, strings.ToLower(t))
		for _, n := range nameForms(r) {
			g.names[strings.ToLower(n)]++
		}
	}
	return g
}

// half splits records by a hash of their id.
func half(r *errkb.Record) string {
	if sum := sha256.Sum256([]byte(r.ID)); sum[0]&1 == 0 {
		return "tune"
	}
	return "held"
}

// template is the record's message with %w replaced by the message of the
// one error it wraps, as the error prints.
func (g *gen) template(r *errkb.Record) string {
	m := r.ErrorMessage
	if len(r.Wraps) == 1 && strings.Contains(m, "%w") {
		if in := g.byID[r.Wraps[0]]; in != nil && in != r {
			m = strings.Replace(m, "%w", in.ErrorMessage, 1)
		}
	}
	return m
}

// stripClient is a message without a leading "pkg: " prefix, as errors
// are often quoted.
func stripClient(m string) string {
	if i := strings.Index(m, ": "); i > 0 && i <= 12 && !strings.ContainsAny(m[:i], " %{") {
		return m[i+2:]
	}
	return m
}

var holeRE = regexp.MustCompile(`%[-+# 0-9.*]*[a-zA-Z]|\{\{[^}]*\}\}|\{[a-zA-Z_]*\}`)

func normalize(m string) string {
	return strings.Join(strings.Fields(strings.ToLower(holeRE.ReplaceAllString(m, "*"))), " ")
}

// letters counts the letters of a template outside its holes.
func letters(tmpl string) int {
	n := 0
	for _, c := range holeRE.ReplaceAllString(tmpl, "") {
		if unicode.IsLetter(c) {
			n++
		}
	}
	return n
}

// nameForms are the names code gives a sentinel or an error type: the
// qualified identifier the record's class holds, and the errors.Is or
// errors.As guard with it.
func nameForms(r *errkb.Record) []string {
	if r.ErrorType != "sentinel" && r.ErrorType != "error_type" || !strings.Contains(r.ErrorClass, ".") || strings.ContainsAny(r.ErrorClass, "()* ") {
		return nil
	}
	guard := "errors.Is(err, " + r.ErrorClass + ")"
	if r.ErrorType == "error_type" {
		guard = "var e *" + r.ErrorClass + "; errors.As(err, &e)"
	}
	return []string{r.ErrorClass, guard}
}

// minPasteLetters is how many letters a message needs to name its record
// inside a longer paste; shorter ones ("EOF", "closed") are not expected
// to be looked up confidently there.
const minPasteLetters = 10

func (g *gen) queries(r *errkb.Record) []query {
	h := half(r)
	var qs []query
	add := func(kind, q string, lookup bool) {
		qs = append(qs, query{Kind: kind, Half: h, Q: q, Want: r.ID, Lookup: lookup})
	}
	for _, n := range nameForms(r) {
		if g.names[strings.ToLower(n)] == 1 {
			add("code", n, true)
			break
		}
	}
	tmpl := g.template(r)
	n := letters(tmpl)
	unique := g.msgCount[normalize(tmpl)] == 1
	if !unique || n < 3 {
		return qs // a message several records share names none of them
	}
	msg := g.fill(tmpl)
	add("message", msg, true)
	long := n >= minPasteLetters
	forms := []func(string) string{g.grpcStatus, g.connectWrap, g.jsonLog, g.klog, g.panicTrace}
	kinds := []string{"grpc", "wrapped", "json", "klog", "panic"}
	i := g.rng.IntN(len(forms))
	add(kinds[i], forms[i](g.fill(tmpl)), long)
	if f := g.fragment(tmpl); f != "" {
		add("fragment", f, false)
	}
	if long {
		add("typo", typo(g.rng, msg, 1+g.rng.IntN(2)), false)
	}
	return qs
}

// fill replaces the holes of a template with plausible values.
func (g *gen) fill(m string) string {
	return holeRE.ReplaceAllStringFunc(m, func(h string) string {
		switch h[len(h)-1] {
		case 'd':
			return fmt.Sprint(g.rng.IntN(5000) + 2)
		case 'q':
			return `"` + g.pick(values) + `"`
		case 'x':
			return fmt.Sprintf("%x", g.rng.IntN(1<<20))
		case 'T':
			return g.pick(goTypes)
		case 'w':
			return g.pick(causes)
		}
		if strings.Contains(h, "err") {
			return g.pick(causes)
		}
		return g.pick(values)
	})
}

var (
	values  = []string{"orders", "10.1.2.3:5432", "users_pkey", "/var/lib/app/data.db", "worker-7", "payments.v1.Charge", "eu-west-1", "42", "app"}
	goTypes = []string{"string", "int64", "*main.Order", "[]uint8", "map[string]interface {}"}
	causes  = []string{"context deadline exceeded", "i/o timeout", "permission denied", "EOF", "connection reset by peer"}
	grpcs   = []string{"Unavailable", "Internal", "Unknown", "FailedPrecondition", "InvalidArgument", "DeadlineExceeded"}
	whats   = []string{"request failed", "failed to sync", "retrying", "giving up", "could not start"}
	// prefixes wrap a message as net, os, database/sql drivers and HTTP
	// clients print the error they got.
	prefixes = []string{
		"dial tcp 10.1.2.3:5432: connect",
		"read tcp 10.0.0.5:51234->10.0.0.9:6379",
		"write tcp 10.0.0.5:4222->10.0.0.9:51000: write",
		"failed to connect to `user=app database=orders`: 10.1.2.3:5432 (db.internal): server error",
		`Post "https://api.internal/v1/orders"`,
		"open /var/lib/app/data.db",
		"redis: pool",
	}
)

func (g *gen) pick(s []string) string { return s[g.rng.IntN(len(s))] }

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// grpcStatus is err as a gRPC client prints the status a server sent.
func (g *gen) grpcStatus(err string) string {
	return "rpc error: code = " + g.pick(grpcs) + " desc = " + err
}

// connectWrap is err behind the prefix a network or file operation adds.
func (g *gen) connectWrap(err string) string {
	return g.pick(prefixes) + ": " + err
}

// jsonLog is err in a zap or slog JSON line.
func (g *gen) jsonLog(err string) string {
	if g.rng.IntN(2) == 0 {
		return fmt.Sprintf(`{"level":"error","ts":%d.%06d,"caller":"server/handler.go:%d","msg":%s,"error":%s}`, 1764547200+g.rng.IntN(86400), g.rng.IntN(1000000), 10+g.rng.IntN(400), jsonString(g.pick(whats)), jsonString(err))
	}
	return fmt.Sprintf(`{"time":"2026-12-07T12:%02d:%02d.%03dZ","level":"ERROR","msg":%s,"err":%s}`, g.rng.IntN(60), g.rng.IntN(60), g.rng.IntN(1000), jsonString(g.pick(whats)), jsonString(err))
}

// klog is err in a klog line, plain or structured.
func (g *gen) klog(err string) string {
	head := fmt.Sprintf("E1207 %02d:%02d:%02d.%06d %7d %s.go:%d] ", g.rng.IntN(24), g.rng.IntN(60), g.rng.IntN(60), g.rng.IntN(1000000), 1+g.rng.IntN(90000), g.pick([]string{"reflector", "controller", "server", "client"}), 10+g.rng.IntN(900))
	if g.rng.IntN(2) == 0 {
		return head + g.pick(whats) + ": " + err
	}
	return head + jsonString(g.pick(whats)) + " err=" + jsonString(err)
}

// panicTrace is err as a Go program that panics with it prints it.
func (g *gen) panicTrace(err string) string {
	return fmt.Sprintf("panic: %s\n\ngoroutine %d [running]:\nmain.run(0xc000012345)\n\t/app/cmd/server/main.go:%d +0x%x\nmain.main()\n\t/app/cmd/server/main.go:%d +0x1d\nexit status 2",
		err, 1+g.rng.IntN(40), 20+g.rng.IntN(200), g.rng.IntN(0x400), 10+g.rng.IntN(20))
}

// fragment is a run of the message's words that no other message holds.
func (g *gen) fragment(tmpl string) string {
	words := strings.Fields(holeRE.ReplaceAllString(tmpl, " "))
	if len(words) < 3 {
		return ""
	}
	for try := 0; try < 6; try++ {
		n := 2 + g.rng.IntN(len(words)-2)
		i := g.rng.IntN(len(words) - n + 1)
		f := strings.Trim(strings.Join(words[i:i+n], " "), " :,.")
		hits := 0
		for _, m := range g.msgs {
			if strings.Contains(m, strings.ToLower(f)) {
				hits++
			}
		}
		if hits == 1 && len(f) >= 8 {
			return f
		}
	}
	return ""
}

// typo makes n edits (substitution, deletion, insertion or swap of
// neighbours) inside letters of words of five letters or more.
func typo(rng *rand.Rand, s string, n int) string {
	b := []rune(s)
	for k := 0; k < n; k++ {
		var spots []int
		for i := 1; i+1 < len(b); i++ {
			if unicode.IsLetter(b[i-1]) && unicode.IsLetter(b[i]) && unicode.IsLetter(b[i+1]) && wordLen(b, i) >= 5 {
				spots = append(spots, i)
			}
		}
		if len(spots) == 0 {
			break
		}
		i := spots[rng.IntN(len(spots))]
		switch rng.IntN(4) {
		case 0:
			c := rune('a' + rng.IntN(26))
			if c == b[i] {
				c = 'x'
			}
			b[i] = c
		case 1:
			b = append(b[:i], b[i+1:]...)
		case 2:
			b = append(b[:i], append([]rune{b[i]}, b[i:]...)...)
		default:
			b[i], b[i+1] = b[i+1], b[i]
		}
	}
	return string(b)
}

func wordLen(b []rune, i int) int {
	s, e := i, i
	for s > 0 && unicode.IsLetter(b[s-1]) {
		s--
	}
	for e < len(b) && unicode.IsLetter(b[e]) {
		e++
	}
	return e - s
}
