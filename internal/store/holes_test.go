package store

import (
	"encoding/json"
	"testing"

	"github.com/errkb/errkb"
)

func TestAppendJSONString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{`say "hi"`, `say \"hi\"`},
		{`C:\path`, `C:\\path`},
		{"a\nb\tc\rd\be\ff", `a\nb\tc\rd\be\ff`},
		{"\x00\x1f", `\u0000\u001f`},
		{"<b> & é", "<b> & é"}, // as the dataset's tools write them
	}
	for _, tc := range tests {
		got := string(appendJSONString(nil, tc.in))
		if got != tc.want {
			t.Errorf("appendJSONString(%q) = %s, want %s", tc.in, got, tc.want)
		}
		var back string
		if err := json.Unmarshal([]byte(`"`+got+`"`), &back); err != nil || back != tc.in {
			t.Errorf("%s decodes to %q (%v), want %q", got, back, err, tc.in)
		}
	}
}

// TestRawHolder cuts holes by hand, as encodeRecord does, and checks that
// the record's raw JSON comes back byte for byte, and that holes that do
// not fit are refused.
func TestRawHolder(t *testing.T) {
	r := &errkb.Record{ID: "a\nb", Repo: "acme/widget"}
	raw := `{"id":"a\nb","repo":"acme/widget","x":1}`
	texts := errkb.AppendTexts(nil, r)
	// In the kept bytes, "id": goes at 1, the id's value 1 after it, and
	// "repo": 2 after that; the repo's value, not escaped, stays.
	var holes []byte
	holes = appendHole(holes, 1, tokenIndex["id"], true)
	holes = appendHole(holes, 1, 0, false)
	holes = appendHole(holes, 2, tokenIndex["repo"], true)
	kept := `{"",` + `"acme/widget","x":1}`
	held := appendHeld(nil, []byte(kept), holes)
	if err := checkHeld(held, texts); err != nil {
		t.Fatal(err)
	}
	r.HoldRaw(held, rawHolder{})
	if got := string(r.RawJSON()); got != raw {
		t.Fatalf("RawJSON = %s, want %s", got, raw)
	}

	for name, bad := range map[string][]byte{
		"gap past the end":  appendHeld(nil, []byte(kept), appendHole(nil, len(kept)+1, 0, true)),
		"no such token":     appendHeld(nil, []byte(kept), appendHole(nil, 1, len(tokens), true)),
		"no such text":      appendHeld(nil, []byte(kept), appendHole(nil, 1, len(texts), false)),
		"hole cut short":    appendHeld(nil, []byte(kept), []byte{0x80}),
		"length past bytes": {0x7f, 1, 2},
		"empty":             nil,
	} {
		if err := checkHeld(bad, texts); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestTokensAreTheKnownKeys checks that every key errkb reads, of the
// record and of its elements, can be cut out once.
func TestTokensAreTheKnownKeys(t *testing.T) {
	for _, k := range []string{"id", "errorMessage", "callSites", "function", "lineNumber"} {
		i, ok := tokenIndex[k]
		if !ok || tokens[i] != `"`+k+`":` {
			t.Errorf("key %q: token %d %v", k, i, ok)
		}
	}
	if len(tokenIndex) != len(tokens) {
		t.Errorf("%d tokens for %d keys: a key appears twice", len(tokens), len(tokenIndex))
	}
}
