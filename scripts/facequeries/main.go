// Command facequeries writes the labelled queries of the faces relevance
// suite (testdata/facerelevance/queries.json): for each server API error
// of a dataset (errorType api_error with a numericCode), what NATS clients
// print for it, the raw JSON API response, the same inside a log line,
// and the bare number. The right answer to each is the server's error,
// never a client's wrapper or sentinel (issue 20). It was written before
// any ranking was tuned on the suite, and it is deterministic.
//
//	go run ./scripts/facequeries -dataset testdata/extractrelevance/dataset -out testdata/facerelevance/queries.json
//
// Every form is taken from the client's source, at the commit named:
//
//   - nats.go jetstream: APIError.Error, "nats: API error: code=%d err_code=%d description=%s"
//     https://github.com/nats-io/nats.go/blob/v1.55.0/jetstream/errors.go#L517-L519
//   - nats.go (package nats): APIError.Error, "nats: %s" of the description
//     https://github.com/nats-io/nats.go/blob/v1.55.0/jserrors.go#L221-L223
//   - nats.py: APIError.__str__, "nats: {class}: code={code} err_code={err_code} description='{description}'",
//     the class chosen by the code in from_error (503, 500, 404, 400)
//     https://github.com/nats-io/nats.py/blob/06b677808029274b64e06af9eee7170d3b80a09b/nats/src/nats/js/errors.py#L80-L96
//   - nats.java: Error.toString, "description [apiErrorCode]", the message of JetStreamApiException
//     https://github.com/nats-io/nats.java/blob/103c3653260ce10ab08e5891d6e4f7a067b8d1ac/src/main/java/io/nats/client/api/Error.java#L93-L106
//   - NATS.Net: NatsJSApiException's message is the description alone
//     https://github.com/nats-io/nats.net/blob/0033cfd7ab941262b2ba15521ba947cc7575aa1a/src/NATS.Client.JetStream/NatsJSException.cs#L85-L87
//   - async-nats: jetstream::Error's Display, "{description} (code {code}, error code {err_code})",
//     behind "JetStream error: " (stream.rs)
//     https://github.com/nats-io/nats.rs/blob/d00e6b58d8da89a1b60f23b756173b6379dccbd7/async-nats/src/jetstream/errors.rs#L714-L724
//     https://github.com/nats-io/nats.rs/blob/d00e6b58d8da89a1b60f23b756173b6379dccbd7/async-nats/src/jetstream/stream.rs#L123
//   - nats-server: the JSON API response, as its own test expects it
//     https://github.com/nats-io/nats-server/blob/v2.15.3/server/jetstream_test.go#L25228
//     (`{"type":"io.nats.jetstream.api.v1.stream_create_response","error":{"code":400,"err_code":10141,...}}`),
//     with the response types of server/jetstream_api.go#L489 and #L869; and ApiError.Error,
//     "%s (%d)" of the description and err_code, as its log lines hold it
//     https://github.com/nats-io/nats-server/blob/v2.15.3/server/jetstream_errors.go#L75-L77
//
// Records are split by a hash of their id into a tuning half and a
// held-out half, as scripts/relevancequeries splits them.
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
	"strconv"
	"strings"
)

type record struct {
	ID           string `json:"id"`
	ErrorMessage string `json:"errorMessage"`
	ErrorType    string `json:"errorType"`
	NumericCode  *int   `json:"numericCode"`
	HTTPStatus   *int   `json:"httpStatus"`
}

// query is one labelled query, as index/relevance_test.go reads it.
type query struct {
	Kind   string `json:"kind"`
	Half   string `json:"half"`
	Q      string `json:"q"`
	Want   string `json:"want"`
	Lookup bool   `json:"lookup"`
}

func main() {
	dataset := flag.String("dataset", "testdata/extractrelevance/dataset", "records folder")
	out := flag.String("out", "testdata/facerelevance/queries.json", "queries file to write")
	seed := flag.Uint64("seed", 20, "random seed")
	flag.Parse()
	all := load(*dataset)
	clients := sentinels(all)
	var recs []*record
	owners := map[int]int{}
	descs := map[string]int{}
	for _, r := range all {
		if r.ErrorType == "api_error" {
			recs = append(recs, r)
			owners[*r.NumericCode]++
			descs[strings.ToLower(r.ErrorMessage)]++
		}
	}
	rng := rand.New(rand.NewPCG(*seed, 1))
	var qs []query
	for _, r := range recs {
		qs = append(qs, queries(r, rng, owners[*r.NumericCode] == 1, descs[strings.ToLower(r.ErrorMessage)] == 1, clients)...)
	}
	data, err := json.MarshalIndent(qs, "", " ")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
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

// load reads the server API errors of a folder of one envelope per .json
// file, as errkb extract writes them.
func load(dir string) []*record {
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*.json"))
	sort.Strings(files)
	var recs []*record
	for _, f := range files {
		if filepath.Base(f) == "_source.json" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			log.Fatal(err)
		}
		var env struct{ Record *record }
		if err := json.Unmarshal(data, &env); err != nil {
			log.Fatal(err)
		}
		if env.Record == nil { // a bare record
			env.Record = &record{}
			if err := json.Unmarshal(data, env.Record); err != nil {
				log.Fatal(err)
			}
		}
		if r := env.Record; r.NumericCode != nil && (r.ErrorType == "api_error" && r.HTTPStatus != nil || r.ErrorType == "sentinel") {
			recs = append(recs, r)
		}
	}
	return recs
}

// sentinels maps "err_code message" to the client sentinels (records of
// errorType sentinel with a numericCode) that print that message for
// that code: nats.go's nats.ErrConsumerNotFound prints "nats: consumer
// not found", the text of its APIError.
func sentinels(recs []*record) map[string][]*record {
	out := map[string][]*record{}
	for _, r := range recs {
		if r.ErrorType == "sentinel" {
			k := strconv.Itoa(*r.NumericCode) + " " + strings.ToLower(r.ErrorMessage)
			out[k] = append(out[k], r)
		}
	}
	return out
}

func half(r *record) string {
	sum := sha256.Sum256([]byte(r.ID))
	if sum[0]&1 == 0 {
		return "tune"
	}
	return "held"
}

// placeholderRE matches the {name} holes of an errors.json description.
var placeholderRE = regexp.MustCompile(`\{[a-z_]+\}`)

// fill writes the description as the server sends it: a number for a
// limit or size, a name for anything else.
func fill(msg string, rng *rand.Rand) string {
	return placeholderRE.ReplaceAllStringFunc(msg, func(h string) string {
		switch h {
		case "{max}", "{limit}", "{size}", "{seq}", "{num}", "{replicas}", "{len}":
			return strconv.Itoa(1 + rng.IntN(4096))
		}
		return []string{"ORDERS", "KV_config", "stream ORDERS", "nats-2", "raft: not leader"}[rng.IntN(5)]
	})
}

// pyClass is the class nats.py raises for an HTTP-like code (from_error).
func pyClass(status int) string {
	switch status {
	case 503:
		return "ServiceUnavailableError"
	case 500:
		return "ServerError"
	case 404:
		return "NotFoundError"
	case 400:
		return "BadRequestError"
	}
	return "APIError"
}

// logPrefixes are what a program's logger writes before the error.
var logPrefixes = []string{
	"2026/11/30 10:00:%02d reconcile ORDERS: ",
	"time=2026-11-30T10:00:%02d.000Z level=ERROR msg=\"request failed\" err=\"",
	"[12] 2026/11/30 10:00:%02d.123456 [ERR] ",
	"E1130 10:00:%02d.747150   37655 controller.go:773] giving up: ",
}

// queries are r's queries. byCode: r's err_code names r alone, so a
// confident lookup is expected; byText: its description does.
//
// The description alone after "nats: " is also the text of a nats.go
// sentinel that maps the code, when one has it: that sentinel is the
// record that prints it, and the server's error is right too (a face).
func queries(r *record, rng *rand.Rand, byCode, byText bool, clients map[string][]*record) []query {
	n, status := *r.NumericCode, *r.HTTPStatus
	d := fill(r.ErrorMessage, rng)
	goText := fmt.Sprintf("nats: API error: code=%d err_code=%d description=%s", status, n, d)
	body, _ := json.Marshal(map[string]any{"code": status, "err_code": n, "description": d})
	respType := []string{"io.nats.jetstream.api.v1.stream_create_response", "io.nats.jetstream.api.v1.consumer_create_response"}[rng.IntN(2)]
	prefix := logPrefixes[rng.IntN(len(logPrefixes))]
	logLine := fmt.Sprintf(prefix, rng.IntN(60)) + goText
	if strings.HasSuffix(prefix, `"`) {
		logLine = fmt.Sprintf(prefix, rng.IntN(60)) + strings.ReplaceAll(goText, `"`, `\"`) + `"`
	}
	forms := []struct {
		kind, q string
		lookup  bool
	}{
		{"nats.go", goText, byCode},
		{"nats.go-nats", "nats: " + d, false}, // the description alone: a lookup only says it when it is unique
		{"nats.py", fmt.Sprintf("nats: %s: code=%d err_code=%d description='%s'", pyClass(status), status, n, d), byCode},
		{"nats.java", fmt.Sprintf("io.nats.client.JetStreamApiException: %s [%d]", d, n), byCode},
		{"nats.net", "NATS.Client.JetStream.NatsJSApiException: " + d, false},
		{"async-nats", fmt.Sprintf("JetStream error: %s (code %d, error code %d)", d, status, n), byCode},
		{"server", fmt.Sprintf("%s (%d)", d, n), byCode},
		{"json", fmt.Sprintf(`{"type":%q,"error":%s}`, respType, body), byCode},
		{"logline", logLine, byCode},
		{"number", strconv.Itoa(n), byCode},
	}
	var out []query
	for _, f := range forms {
		lookup := f.lookup
		if !lookup && byText && !placeholderRE.MatchString(r.ErrorMessage) {
			lookup = f.kind == "nats.net" || f.kind == "nats.go-nats"
		}
		want := r.ID
		if f.kind == "nats.go-nats" {
			switch cs := clients[strconv.Itoa(n)+" "+strings.ToLower(f.q)]; len(cs) {
			case 0:
			case 1:
				want = cs[0].ID
			default:
				want, lookup = cs[0].ID, false // printed by sentinels of two packages
			}
		}
		out = append(out, query{Kind: f.kind, Half: half(r), Q: f.q, Want: want, Lookup: lookup})
	}
	return out
}
