package index

import (
	"context"
	"testing"

	"github.com/errkb/errkb"
)

// TestNeverConfidentlyWrong holds the decision to the cases issue 23
// names, on records errkb extract made from grpc-go and the standard
// library (testdata/pastesuites): a short generic record inside a long
// paste, a pattern whose fixed words are few matching the user's own
// prefix, and the message its wrapper was found around. Each text is
// also one a confident lookup must still answer.
func TestNeverConfidentlyWrong(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an index of two extracted projects")
	}
	ix := buildIndex(t, pasteFolder("grpc"), pasteFolder("std"))
	byMessage := func(msg string) string {
		t.Helper()
		for _, r := range ix.Dataset().Records {
			if r.ErrorMessage == msg {
				return r.ID
			}
		}
		t.Fatalf("no record says %q", msg)
		return ""
	}
	tests := []struct {
		name, q string
		want    string // the message of the record to match; "" for no confident answer
	}{
		{"short std record inside an open error", "open /var/lib/app/config.yaml: no such file or directory", ""},
		{"std unimplemented inside a gRPC status", "rpc error: code = Unimplemented desc = unknown service orders.v1.Orders", ""},
		{"verb-heavy pattern on the user's own line", "GET /api/orders failed: 502 (bad gateway)", ""},
		{"json.Unmarshal pattern on the user's own code", "json.Unmarshal(body): unexpected end of JSON input", ""},
		{"a message whole", "http: no such file", "http: no such file"},
		{"a message in a log line", `{"level":"error","msg":"resolve","error":"dns resolver: missing address"}`, "dns resolver: missing address"},
		{"a message in a panic", "panic: http: no such file\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:12 +0x1d", "http: no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lr, err := ix.Lookup(context.Background(), tt.q)
			if err != nil {
				t.Fatal(err)
			}
			want := ""
			if tt.want != "" {
				want = byMessage(tt.want)
			}
			if got := matchID(lr); got != want {
				t.Errorf("Lookup(%q) = %s (%s), want %q", tt.q, got, lr.Reason, want)
			}
		})
	}
}

func matchID(lr *LookupResult) string {
	if lr.Match == nil {
		return ""
	}
	return lr.Match.ID
}

// TestUnexplainedRules checks the pure helpers the rules rest on.
func TestUnexplainedRules(t *testing.T) {
	tests := []struct {
		name       string
		lit, m     string
		wantProbes []string
	}{
		{"word before across punctuation", "dns resolver: missing address", "missing address", []string{"resolver: missing address"}},
		{"word after", "using invalid connection type", "invalid connection", []string{"using invalid connection", "invalid connection type"}},
		{"a value is no word", "got 42: not found", "not found", nil},
		{"the whole message", "not found", "not found", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := probes(tt.lit, tt.m)
			if len(got) != len(tt.wantProbes) {
				t.Fatalf("probes(%q, %q) = %q, want %q", tt.lit, tt.m, got, tt.wantProbes)
			}
			for i := range got {
				if got[i] != tt.wantProbes[i] {
					t.Errorf("probes(%q, %q) = %q, want %q", tt.lit, tt.m, got, tt.wantProbes)
				}
			}
		})
	}
	codes := []struct {
		code, msg string
		want      bool
	}{
		{"JSON_UNMARSHAL", "json.Unmarshal(%v): %v", true},
		{"ERR_CONN_UNUSABLE", "redis: connection unusable", false},
		{"PARSE_ERROR", "parse error: '%s'", true},
	}
	var ix Index
	for _, c := range codes {
		if got := ix.spellsOwnMessage(&errkb.Record{ErrorCode: c.code, ErrorMessage: c.msg}); got != c.want {
			t.Errorf("spellsOwnMessage(%s, %q) = %v, want %v", c.code, c.msg, got, c.want)
		}
	}
	for _, c := range []struct {
		chunks []string
		code   string
		want   bool
	}{
		{[]string{"errors.Is(err,", "pkg.PARSE_ERROR)"}, "PARSE_ERROR", true},
		{[]string{"Parse", "Error"}, "PARSE_ERROR", false},
		{[]string{"X_PARSE_ERROR"}, "PARSE_ERROR", false},
	} {
		if got := writesCode(c.chunks, c.code); got != c.want {
			t.Errorf("writesCode(%q, %s) = %v, want %v", c.chunks, c.code, got, c.want)
		}
	}
}

// TestNeverConfidentlyWrongNATS holds the decision on the embedded NATS
// records (the paste suites' "nats" project) to texts of the tuning half
// that were answered with the wrong record: a piece of a protocol
// string another record's code or folded words fit, a typo two records
// are as close to, and a message found with a typo inside a longer one;
// and to a log line with the error it wraps, which is the log record's.
func TestNeverConfidentlyWrongNATS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an index of the embedded NATS records")
	}
	ix := buildIndex(t, pasteFolder("nats"))
	tests := []struct {
		name, q string
		want    string // the message of the record to match; "" for no confident answer
		wraps   string // the message of the error it wraps
	}{
		{"piece of a protocol string, a code near it", "-ERR 'Authorization", "", ""},
		{"piece of a protocol string, folded words of another", "'Invalid Subscription'", "", ""},
		{"piece of a message, a code near it", "Parse Error [", "", ""},
		{"typo as close to two messages", "failed to dcompress block: i/o timeojt", "", ""},
		{"typo in a message wrapped by the one of the text", "nats: invklid argument: retry attempst cannot be negative", "", ""},
		{"log line with the error it wraps", "[1] 2026/12/07 10:00:00.123456 [WRN] Consumer create failed for 'ACC > ORDERS > proc': insufficient resources",
			"Consumer create failed for '%s > %s > %s': %v", "insufficient resources"},
		{"log line with an error ranked above it", "[WRN] Consumer create failed for 'ACC > ORDERS > proc': consumer name already in use",
			"Consumer create failed for '%s > %s > %s': %v", "consumer name already in use"},
		{"a protocol string whole", "-ERR 'Authorization Violation'", "-ERR 'Authorization Violation'", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lr, err := ix.Lookup(context.Background(), tt.q)
			if err != nil {
				t.Fatal(err)
			}
			got, wraps := "", ""
			if lr.Match != nil {
				got = lr.Match.ErrorMessage
			}
			if lr.Wrapped != nil {
				wraps = lr.Wrapped.ErrorMessage
			}
			if got != tt.want || wraps != tt.wraps {
				t.Errorf("Lookup(%q) = %q wrapping %q (%s), want %q wrapping %q", tt.q, got, wraps, lr.Reason, tt.want, tt.wraps)
			}
		})
	}
}
