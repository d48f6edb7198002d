package index

import (
	"slices"
	"strings"
	"testing"
)

func TestUnderstand(t *testing.T) {
	tests := []struct {
		name         string
		q            string
		wantSegment  string   // one of the segments
		wantWords    []string // exactly the words, in order
		wantKeyed    []string
		wantNotKeyed []string
		wantNoTokens []string
	}{
		{
			name:        "plain message",
			q:           "consumer is offline",
			wantSegment: "consumer is offline",
			wantWords:   []string{"consumer", "is", "offline"},
		},
		{
			name:        "go log line: prefix, numbers, address and path dropped from words",
			q:           `[4411] 2026/11/02 09:14:07.120331 [ERR] 10.0.0.7:4222 - cid:18 - stream "ORDERS" not found in /var/lib/nats`,
			wantSegment: `[4411] 2026/11/02 09:14:07.120331 [ERR] 10.0.0.7:4222 - cid:18 - stream "ORDERS" not found in /var/lib/nats`,
			wantWords:   []string{"stream", "not", "found", "in"},
		},
		{
			name:        "slog text: message and error unquoted",
			q:           `time=2026-03-01T10:22:01Z level=ERROR msg="cache get" err="nwc: key too long (318 > 250 bytes)"`,
			wantSegment: `nwc: key too long (318 > 250 bytes)`,
			wantWords:   []string{"cache", "get", "nwc", "key", "too", "long", "bytes"},
		},
		{
			name:        "json log: message inside an escaped string",
			q:           `{"level":"error","msg":"create failed","error":"stream \"AUDIT\" is sealed, no new messages accepted"}`,
			wantSegment: `stream "AUDIT" is sealed, no new messages accepted`,
		},
		{
			name:        "api body: code-like keys give keyed numbers",
			q:           `{"error":{"code":400,"err_code":20391,"description":"stream name already in use"}}`,
			wantSegment: "stream name already in use",
			wantWords:   []string{"stream", "name", "already", "in", "use"},
			wantKeyed:   []string{"400", "20391"},
		},
		{
			name:        "client wrapper: unquoted description runs to the end",
			q:           "qk: API error: code=400 err_code=20345 description=maximum consumers limit reached",
			wantSegment: "maximum consumers limit reached",
			wantWords:   []string{"maximum", "consumers", "limit", "reached"},
			wantKeyed:   []string{"400", "20345"},
		},
		{
			name:        "truncated json keeps its unescaped text as a segment",
			q:           `{"msg":"stream \"ORDERS\" not found`,
			wantSegment: `{"msg":"stream "ORDERS" not found`,
		},
		{
			name:      "templates and quoted values are not words",
			q:         `invalid offset %d for partition 'p-7'`,
			wantWords: []string{"invalid", "offset", "for", "partition"},
		},
		{
			// nats.java's Error.toString, "description [err_code]":
			// src/main/java/io/nats/client/api/Error.java line 105 at
			// https://github.com/nats-io/nats.java/blob/103c3653260ce10ab08e5891d6e4f7a067b8d1ac/src/main/java/io/nats/client/api/Error.java#L105
			name:      "a code in brackets after a description is keyed",
			q:         "io.nats.client.JetStreamApiException: consumer is offline [10119]",
			wantKeyed: []string{"10119"},
		},
		{
			// nats-server's ApiError.Error, "description (err_code)":
			// server/jetstream_errors.go line 76 at v2.15.3,
			// https://github.com/nats-io/nats-server/blob/v2.15.3/server/jetstream_errors.go#L76
			name:      "a code in parentheses after a description is keyed",
			q:         "[ERR] consumer is offline (10119)",
			wantKeyed: []string{"10119"},
		},
		{
			name:         "a pid in brackets before a log line is not",
			q:            "[12345] 2026/11/02 09:14:07.123456 [ERR] consumer is offline",
			wantNotKeyed: []string{"12345"},
		},
		{
			name:         "invalid utf-8 is replaced, not rejected",
			q:            "bad \xff\xfe input",
			wantWords:    []string{"bad", "input"},
			wantNoTokens: []string{"\xff"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := understand(tt.q)
			if tt.wantSegment != "" && !slices.Contains(u.segments, tt.wantSegment) {
				t.Errorf("segments %q lack %q", u.segments, tt.wantSegment)
			}
			if tt.wantWords != nil && !slices.Equal(u.words, tt.wantWords) {
				t.Errorf("words = %q, want %q", u.words, tt.wantWords)
			}
			for _, k := range tt.wantKeyed {
				if !slices.Contains(u.keyedNumbers, k) {
					t.Errorf("keyed numbers %q lack %q", u.keyedNumbers, k)
				}
			}
			for _, k := range tt.wantNotKeyed {
				if slices.Contains(u.keyedNumbers, k) {
					t.Errorf("keyed numbers %q hold %q", u.keyedNumbers, k)
				}
			}
			for _, tok := range tt.wantNoTokens {
				if u.tokens[tok] {
					t.Errorf("token %q present", tok)
				}
			}
		})
	}
}

func TestUnderstandBoundsWork(t *testing.T) {
	long := strings.Repeat(`{"msg":"a b c d e f g h"} `, 2000)
	u := understand(long)
	if len(u.raw) > MaxQueryBytes || len(u.words) > maxWords || len(u.segments) > maxSegments || len(u.chunks) > maxChunks {
		t.Errorf("unbounded: raw %d bytes, %d words, %d segments, %d chunks", len(u.raw), len(u.words), len(u.segments), len(u.chunks))
	}
}
