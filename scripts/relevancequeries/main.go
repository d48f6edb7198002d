// Command relevancequeries writes the labelled queries of the real-record
// relevance suite (testdata/realrelevance/queries.json) from its records.
// It was written before any ranking was tuned on the suite, and it is
// deterministic: the same records and seed give the same queries.
//
//	go run ./scripts/relevancequeries -dataset testdata/realrelevance/dataset -out testdata/realrelevance/queries.json
//
// Each query is what an engineer would paste for one record: one of its
// code forms, its message with values filled in, a log line holding it in
// one of many logging formats behind 0-2 wrappers, a fragment of it, or
// either with 1-2 typos. Records are split by a hash of their id into a
// tuning half and a held-out half; a query belongs to its record's half.
package main

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

type record struct {
	ID             string   `json:"id"`
	Repo           string   `json:"repo"`
	ErrorCode      string   `json:"errorCode"`
	ErrorClass     string   `json:"errorClass"`
	ErrorMessage   string   `json:"errorMessage"`
	MessagePattern string   `json:"messagePattern"`
	Documentation  string   `json:"documentation"`
	NumericCode    *int     `json:"numericCode"`
	GoPackage      string   `json:"goPackage"`
	Wraps          []string `json:"wraps"`
	ErrorType      string   `json:"errorType"`
}

// query is one labelled query. Lookup says a confident match is expected:
// the query names one record and no other.
type query struct {
	Kind   string `json:"kind"`
	Half   string `json:"half"`
	Q      string `json:"q"`
	Want   string `json:"want"`
	Lookup bool   `json:"lookup"`
}

func main() {
	dataset := flag.String("dataset", "testdata/realrelevance/dataset", "records folder")
	out := flag.String("out", "testdata/realrelevance/queries.json", "queries file to write")
	seed := flag.Uint64("seed", 11, "random seed")
	flag.Parse()
	recs := load(*dataset)
	g := newGen(recs, rand.New(rand.NewPCG(*seed, 1)))
	var qs []query
	for _, r := range recs {
		qs = append(qs, g.queries(r)...)
	}
	data, err := json.MarshalIndent(qs, "", " ")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, append(data, '\n'), 0o644); err != nil {
		log.Fatal(err)
	}
	count := map[string]int{}
	for _, q := range qs {
		count[q.Half+" "+q.Kind]++
	}
	fmt.Println(len(qs), "queries", count)
}

// load reads records.jsonl files (one envelope a line) and folders of
// one envelope per .json file, as errkb extract writes them.
func load(dir string) []*record {
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*", "records.jsonl"))
	one, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*.json"))
	for _, f := range one {
		if filepath.Base(f) != "_source.json" {
			files = append(files, f)
		}
	}
	sort.Strings(files)
	var recs []*record
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			log.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var env struct{ Record *record }
			if err := json.Unmarshal([]byte(line), &env); err != nil {
				log.Fatal(err)
			}
			if env.Record == nil { // a bare record
				env.Record = &record{}
				if err := json.Unmarshal([]byte(line), env.Record); err != nil {
					log.Fatal(err)
				}
			}
			recs = append(recs, env.Record)
		}
	}
	return recs
}

type gen struct {
	rng      *rand.Rand
	byID     map[string]*record
	msgCount map[string]int // normalized message templates
	codes    map[string]int // forms of codes -> how many records they name
	msgs     []string       // every record's message, lower case, for fragments
}

func newGen(recs []*record, rng *rand.Rand) *gen {
	g := &gen{rng: rng, byID: map[string]*record{}, msgCount: map[string]int{}, codes: map[string]int{}}
	for _, r := range recs {
		g.byID[r.ID] = r
	}
	for _, r := range recs {
		g.msgCount[normalize(g.template(r))]++
		if r.Repo == "nats-io/nats.go" {
			g.msgCount[normalize(strings.TrimPrefix(g.template(r), "nats: "))]++
		}
		g.msgs = append(g.msgs, strings.ToLower(g.template(r)))
		for _, f := range codeForms(r) {
			g.codes[f.text]++
		}
	}
	return g
}

func half(r *record) string {
	sum := sha256.Sum256([]byte(r.ID))
	if sum[0]&1 == 0 {
		return "tune"
	}
	return "held"
}

// template is the record's message with %w replaced by the message of the
// error it wraps, as the error prints.
func (g *gen) template(r *record) string {
	m := r.ErrorMessage
	if len(r.Wraps) == 1 && strings.Contains(m, "%w") {
		if in := g.byID[r.Wraps[0]]; in != nil {
			m = strings.Replace(m, "%w", g.template(in), 1)
		}
	}
	return m
}

var holeRE = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z]|\{\{[^}]*\}\}|\{[a-zA-Z_]*\}`)

func normalize(m string) string {
	return strings.Join(strings.Fields(strings.ToLower(holeRE.ReplaceAllString(m, "*"))), " ")
}

// fill replaces placeholders with plausible values.
func (g *gen) fill(m string) string {
	return holeRE.ReplaceAllStringFunc(m, func(h string) string {
		switch h[len(h)-1] {
		case 'd':
			return fmt.Sprint(g.rng.IntN(5000) + 2)
		case 'q':
			return `"` + g.pick(names) + `"`
		case 'x':
			return fmt.Sprintf("%x", g.rng.IntN(1<<20))
		}
		if strings.Contains(h, "seq") || strings.Contains(h, "max") || strings.Contains(h, "limit") {
			return fmt.Sprint(g.rng.IntN(5000) + 2)
		}
		if strings.Contains(h, "err") {
			return g.pick(causes)
		}
		return g.pick(names)
	})
}

var (
	names    = []string{"ORDERS", "orders", "nats-2", "KV_config", "events.>", "/var/lib/app/data.db", "worker-7", "payments.new", "OBJ_assets", "eu-west"}
	causes   = []string{"context deadline exceeded", "i/o timeout", "permission denied", "raft: no leader", "insufficient resources"}
	wrappers = []string{"failed to publish order %d", "create consumer %q", "sync: read segment %d", "handler %s", "startup", "request %x failed", "loading config %s", "reconcile stream %q"}
	programs = []string{"orderd", "ingest", "api", "worker"}
)

func (g *gen) pick(s []string) string { return s[g.rng.IntN(len(s))] }

type form struct {
	text string
}

// codeForms are the ways code names a record: its identifier bare and
// qualified, the errno under syscall and x/sys/unix, an errors.Is guard,
// a numeric code under a JSON key, and identifiers its documentation gives.
func codeForms(r *record) []form {
	pkg := r.GoPackage[strings.LastIndex(r.GoPackage, "/")+1:]
	out := []form{{r.ErrorCode}, {pkg + "." + r.ErrorCode}, {"errors.Is(err, " + pkg + "." + r.ErrorCode + ")"}}
	if r.ErrorType == "errno" {
		out = append(out, form{"unix." + r.ErrorCode})
		for _, alias := range regexp.MustCompile(`also named ([A-Z0-9, ]+)`).FindStringSubmatch(r.Documentation + "") {
			if !strings.HasPrefix(alias, "also") {
				for _, a := range strings.Split(alias, ", ") {
					out = append(out, form{a})
				}
			}
		}
	}
	if r.ErrorType == "jetstream_api_error" && r.NumericCode != nil {
		out = append(out, form{fmt.Sprintf(`{"code":%d,"err_code":%d}`, 0, *r.NumericCode)})
	}
	if m := regexp.MustCompile("`ErrorCode` (JSErrCode[A-Za-z]+)").FindStringSubmatch(r.Documentation); m != nil {
		out = append(out, form{m[1]})
	}
	return out
}

func (g *gen) queries(r *record) []query {
	h := half(r)
	var qs []query
	add := func(kind, q string, lookup bool) {
		qs = append(qs, query{Kind: kind, Half: h, Q: q, Want: r.ID, Lookup: lookup})
	}
	// Code forms: two of them, each a lookup when it names this record only.
	forms := codeForms(r)
	g.rng.Shuffle(len(forms), func(i, j int) { forms[i], forms[j] = forms[j], forms[i] })
	n := 0
	for _, f := range forms {
		if g.codes[f.text] == 1 && n < 2 {
			add("code", strings.ReplaceAll(f.text, `"code":0,`, fmt.Sprintf(`"code":%d,`, 400+g.rng.IntN(4)*100)), true)
			n++
		}
	}
	if len(r.ErrorCode) >= 12 && g.codes[r.ErrorCode] == 1 {
		add("typo", typo(g.rng, r.ErrorCode, 1+g.rng.IntN(2)), false)
	}
	tmpl := g.template(r)
	lit := holeRE.ReplaceAllString(tmpl, "")
	letters := 0
	for _, c := range lit {
		if unicode.IsLetter(c) {
			letters++
		}
	}
	if g.msgCount[normalize(tmpl)] != 1 || letters < 3 {
		return qs // messages several records share name none of them
	}
	msg := g.fill(tmpl)
	add("message", msg, true)
	if r.Repo == "nats-io/nats.go" && strings.HasPrefix(msg, "nats: ") && g.msgCount[normalize(strings.TrimPrefix(tmpl, "nats: "))] == 1 {
		add("message", strings.TrimPrefix(msg, "nats: "), true)
	}
	for i := 0; i < 2; i++ {
		add("log", g.logLine(g.wrap(g.fill(tmpl))), letters >= 10)
	}
	if f := g.fragment(tmpl); f != "" {
		add("fragment", f, false)
	}
	if letters >= 10 {
		add("typo", typo(g.rng, msg, 1+g.rng.IntN(2)), false)
	}
	return qs
}

// wrap puts 0-2 wrapper layers with values around m, as fmt.Errorf("...: %w") does.
func (g *gen) wrap(m string) string {
	for i := g.rng.IntN(3); i > 0; i-- {
		m = g.fill(g.pick(wrappers)) + ": " + m
	}
	return m
}

// logLine prints err the way one of many loggers would.
func (g *gen) logLine(err string) string {
	ts := fmt.Sprintf("2026-11-%02dT%02d:%02d:%02d.%03dZ", 1+g.rng.IntN(28), g.rng.IntN(24), g.rng.IntN(60), g.rng.IntN(60), g.rng.IntN(1000))
	j := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	what := g.pick([]string{"request failed", "operation failed", "retrying", "giving up", "could not start"})
	switch g.rng.IntN(9) {
	case 0: // slog text
		return fmt.Sprintf("time=%s level=ERROR msg=%q err=%s", ts, what, strconvQuote(err))
	case 1: // slog JSON
		return fmt.Sprintf(`{"time":%s,"level":"ERROR","msg":%s,"err":%s}`, j(ts), j(what), j(err))
	case 2: // zap JSON
		return fmt.Sprintf(`{"level":"error","ts":%d.%d,"caller":"app/main.go:%d","msg":%s,"error":%s}`, 1764547200+g.rng.IntN(86400), g.rng.IntN(1000000), 10+g.rng.IntN(400), j(what), j(err))
	case 3: // logrus text
		return fmt.Sprintf(`time=%q level=error msg=%q error=%s`, ts, what, strconvQuote(err))
	case 4: // klog
		return fmt.Sprintf("E1201 %02d:%02d:%02d.%06d %7d controller.go:%d] %s: %s", g.rng.IntN(24), g.rng.IntN(60), g.rng.IntN(60), g.rng.IntN(1000000), 1000+g.rng.IntN(90000), 10+g.rng.IntN(900), what, err)
	case 5: // log.Printf
		return fmt.Sprintf("2026/11/%02d %02d:%02d:%02d %s: %s", 1+g.rng.IntN(28), g.rng.IntN(24), g.rng.IntN(60), g.rng.IntN(60), what, err)
	case 6: // gRPC status
		return "rpc error: code = " + g.pick([]string{"Internal", "Unavailable", "FailedPrecondition", "NotFound", "Unknown"}) + " desc = " + err
	case 7: // CLI
		return "Error: " + err
	default: // zap console
		return fmt.Sprintf("%s\tERROR\t%s\t%s\t{\"error\": %s}", ts, g.pick(programs)+"/main.go:"+fmt.Sprint(10+g.rng.IntN(300)), what, j(err))
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
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
		f := strings.Join(words[i:i+n], " ")
		f = strings.Trim(f, ":,.")
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
			if unicode.IsUpper(b[i]) {
				c = unicode.ToUpper(c)
			}
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
