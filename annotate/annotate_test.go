package annotate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// fakeMatcher knows the lines holding "fuel below reserve": the Stream
// tests are about lines, not about matching (Local and Remote are tested
// against a real index below).
type fakeMatcher struct{}

func (f *fakeMatcher) Match(_ context.Context, line string) (Match, bool, error) {
	if strings.Contains(line, "fuel below reserve") {
		return Match{Code: "E_FUEL_LOW", URL: "https://kb.example/errors/acme-labs/rocket/fuel-low"}, true, nil
	}
	if strings.Contains(line, "lookup fails") {
		return Match{}, false, errors.New("server gone")
	}
	return Match{}, false, nil
}

const suffix = "  errkb_code=E_FUEL_LOW errkb_url=https://kb.example/errors/acme-labs/rocket/fuel-low"

func TestStream(t *testing.T) {
	long := "fuel below reserve " + strings.Repeat("x", 100)
	huge := "fuel below reserve " + strings.Repeat("y", readSize*2+7) // longer than the read buffer
	for _, tc := range []struct {
		name, in, want string
		json           bool
	}{
		{"empty", "", "", false},
		{"plain lines unchanged", "a\nb\n\nc\n", "a\nb\n\nc\n", false},
		{"match appended", "INFO ok\nERROR fuel below reserve\n", "INFO ok\nERROR fuel below reserve" + suffix + "\n", false},
		{"no final newline", "ERROR fuel below reserve", "ERROR fuel below reserve" + suffix, false},
		{"CRLF kept", "ERROR fuel below reserve\r\nok\r\n", "ERROR fuel below reserve" + suffix + "\r\nok\r\n", false},
		{"over the lookup limit", long + "\n", long + "\n", false},
		{"over the read buffer", huge + "\nfuel below reserve\n", huge + "\nfuel below reserve" + suffix + "\n", false},
		{"failed lookup passes", "lookup fails here\n", "lookup fails here\n", false},
		{"json keys added", `{"level":"error","msg":"fuel below reserve"}` + "\n",
			`{"level":"error","msg":"fuel below reserve","errkb_code":"E_FUEL_LOW","errkb_url":"https://kb.example/errors/acme-labs/rocket/fuel-low"}` + "\n", true},
		{"json with spaces", ` { "msg" : "fuel below reserve" } `,
			` { "msg" : "fuel below reserve" ,"errkb_code":"E_FUEL_LOW","errkb_url":"https://kb.example/errors/acme-labs/rocket/fuel-low"} `, true},
		{"json already annotated", `{"msg":"fuel below reserve","errkb_url":"x"}`, `{"msg":"fuel below reserve","errkb_url":"x"}`, true},
		{"not json in json mode", "fuel below reserve {", "fuel below reserve {" + suffix, true},
		{"json array in json mode", `["fuel below reserve"]`, `["fuel below reserve"]` + suffix, true},
		{"json line without --json", `{"msg":"fuel below reserve"}`, `{"msg":"fuel below reserve"}` + suffix, false},
	} {
		for _, workers := range []int{1, 4} {
			t.Run(fmt.Sprintf("%s/workers=%d", tc.name, workers), func(t *testing.T) {
				var out bytes.Buffer
				var errs []error
				opt := Options{JSON: tc.json, MaxLineBytes: 100, Workers: workers, OnError: func(err error) { errs = append(errs, err) }}
				if err := Stream(context.Background(), strings.NewReader(tc.in), &out, &fakeMatcher{}, opt); err != nil {
					t.Fatal(err)
				}
				if out.String() != tc.want {
					t.Errorf("got  %.300q\nwant %.300q", out.String(), tc.want)
				}
				if tc.json && strings.HasPrefix(strings.TrimSpace(tc.want), "{") {
					var m map[string]any
					if err := json.Unmarshal([]byte(strings.TrimSpace(out.String())), &m); err != nil {
						t.Errorf("annotated JSON line no longer parses: %v", err)
					}
				}
				if strings.Contains(tc.in, "lookup fails") && len(errs) != 1 {
					t.Errorf("OnError heard %d errors, want 1", len(errs))
				}
			})
		}
	}
}

// TestStreamKeepsOrder sends many lines through several workers whose
// lookups finish out of order: the lines must come out as they went in.
func TestStreamKeepsOrder(t *testing.T) {
	var in, want strings.Builder
	for i := range 2000 {
		line := fmt.Sprintf("line %d", i)
		if i%7 == 0 {
			line += " fuel below reserve"
			fmt.Fprintf(&want, "%s%s\n", line, suffix)
		} else {
			want.WriteString(line + "\n")
		}
		in.WriteString(line + "\n")
	}
	var out bytes.Buffer
	if err := Stream(context.Background(), strings.NewReader(in.String()), &out, slowMatcher{}, Options{MaxLineBytes: 100, Workers: 8}); err != nil {
		t.Fatal(err)
	}
	if out.String() != want.String() {
		t.Error("lines came out of order or changed")
	}
}

// slowMatcher answers after a delay that varies from line to line.
type slowMatcher struct{}

func (slowMatcher) Match(ctx context.Context, line string) (Match, bool, error) {
	time.Sleep(time.Duration(len(line)%5) * 50 * time.Microsecond)
	return (&fakeMatcher{}).Match(ctx, line)
}

// TestStreamKeepsEveryKey checks that an annotated JSON line holds every
// key it had, with the same values, plus the two new ones.
func TestStreamKeepsEveryKey(t *testing.T) {
	in := `{"time":"2026-11-30T01:02:03Z","level":"error","msg":"fuel below reserve","n":3,"nested":{"a":[1,2]},"null":null}`
	var out bytes.Buffer
	if err := Stream(context.Background(), strings.NewReader(in+"\n"), &out, &fakeMatcher{}, Options{JSON: true, MaxLineBytes: 1000}); err != nil {
		t.Fatal(err)
	}
	var before, after map[string]any
	_ = json.Unmarshal([]byte(in), &before)
	if err := json.Unmarshal(out.Bytes(), &after); err != nil {
		t.Fatal(err)
	}
	for k, v := range before {
		if got, _ := json.Marshal(after[k]); string(got) != mustJSON(v) {
			t.Errorf("key %q: %s, was %s", k, got, mustJSON(v))
		}
	}
	if after[KeyCode] != "E_FUEL_LOW" || after[KeyURL] != "https://kb.example/errors/acme-labs/rocket/fuel-low" {
		t.Errorf("added keys: %v %v", after[KeyCode], after[KeyURL])
	}
	if len(after) != len(before)+2 {
		t.Errorf("%d keys, want %d", len(after), len(before)+2)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestStreamFlushesEachLine writes one line into a pipe and reads its
// annotation back before the input is closed, as `kubectl logs -f |
// errkb annotate` needs.
func TestStreamFlushesEachLine(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Stream(context.Background(), inR, outW, &fakeMatcher{}, Options{MaxLineBytes: 1000})
		outW.Close()
	}()
	lines := bufio.NewReader(outR)
	for i, in := range []string{"ERROR fuel below reserve", "INFO still running"} {
		go func() { _, _ = io.WriteString(inW, in+"\n") }()
		got := make(chan string, 1)
		go func() {
			l, _ := lines.ReadString('\n')
			got <- l
		}()
		want := in + "\n"
		if i == 0 {
			want = in + suffix + "\n"
		}
		select {
		case l := <-got:
			if l != want {
				t.Fatalf("line %d: got %q, want %q", i, l, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("line %d: no output while the input stays open", i)
		}
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestStreamStopsOnCancel checks that a cancelled context ends a stream
// whose input is still open after the next line.
func TestStreamStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Stream(ctx, inR, io.Discard, &fakeMatcher{}, Options{}) }()
	_, _ = io.WriteString(inW, "one\n")
	cancel()
	go func() { _, _ = io.WriteString(inW, "two\n") }()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Stream = %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Stream did not stop")
	}
}

func TestLogfmtValue(t *testing.T) {
	for in, want := range map[string]string{"E1": "E1", "": `""`, "a b": `"a b"`, `a"b`: `"a\"b"`, "k=v": `"k=v"`} {
		if got := logfmtValue(in); got != want {
			t.Errorf("logfmtValue(%q) = %s, want %s", in, got, want)
		}
	}
}
