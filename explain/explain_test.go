package explain

import (
	"bytes"
	"strings"
	"testing"

	"github.com/errkb/errkb"
)

// record is a record of a fictional project.
func record() *errkb.Record {
	return &errkb.Record{
		Repo: "acme-labs/rocket", Slug: "fuel-low", ErrorCode: "E_FUEL_LOW", ErrorMessage: "fuel below `reserve` for *stage* 2",
		Severity: "error", Documentation: "The tank holds less than the reserve.\nLaunch stops.",
		TriggerScenarios: "A launch with a half-full tank.", Solutions: []string{"Refuel.", "Lower the reserve."},
		FilePath: "engine/fuel.go", LineNumber: 12, SourceCode: "func check() {\n\treturn ErrFuelLow\n}\n", SourceCodeStart: 11,
		GithubURL:   "https://github.com/acme-labs/rocket/blob/0123456789abcdef0123456789abcdef01234567/engine/fuel.go#L12",
		AnalyzedSha: "0123456789abcdef0123456789abcdef01234567",
		ExampleFix:  "if fuel < reserve {\n\trefuel()\n}\n// ```",
	}
}

func TestText(t *testing.T) {
	var b bytes.Buffer
	if err := Text(&b, record(), "https://kb.example"); err != nil {
		t.Fatal(err)
	}
	want := "E_FUEL_LOW (acme-labs/rocket, error)\n" +
		"  fuel below `reserve` for *stage* 2\n\n" +
		"What it means\n  The tank holds less than the reserve.\n  Launch stops.\n\n" +
		"When it happens\n  A launch with a half-full tank.\n\n" +
		"Solutions\n  1. Refuel.\n  2. Lower the reserve.\n\n" +
		"Example fix\n    if fuel < reserve {\n    \trefuel()\n    }\n    // ```\n\n" +
		"Source: engine/fuel.go:12\n  https://github.com/acme-labs/rocket/blob/0123456789abcdef0123456789abcdef01234567/engine/fuel.go#L12\n" +
		"More: https://kb.example/errors/acme-labs/rocket/fuel-low\n"
	if b.String() != want {
		t.Errorf("Text:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := Markdown(&b, record(), ""); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"# E\\_FUEL\\_LOW\n",
		"**acme\\-labs/rocket** · error · `` fuel below `reserve` for *stage* 2 ``\n",
		"## What it means\n\nThe tank holds less than the reserve.\nLaunch stops.\n",
		"1. Refuel.\n2. Lower the reserve.\n",
		"[engine/fuel\\.go:12](https://github.com/acme-labs/rocket/blob/0123456789abcdef0123456789abcdef01234567/engine/fuel.go#L12) at commit `0123456789ab`",
		"```\n     11  func check() {\n>    12  \treturn ErrFuelLow\n     13  }\n```\n",
		"Lines on GitHub: [11](https://github.com/acme-labs/rocket/blob/0123456789abcdef0123456789abcdef01234567/engine/fuel.go#L11) [12](",
		"## Example fix\n\n````\nif fuel < reserve {\n\trefuel()\n}\n// ```\n````\n",
		"More: </errors/acme-labs/rocket/fuel-low>\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
}

func TestCodeSpanAndFence(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "`plain`"},
		{"a `b` c", "`` a `b` c ``"},
		{"`edge", "`` `edge ``"},
		{"two\nlines", "`two lines`"},
	} {
		if got := codeSpan(tc.in); got != tc.want {
			t.Errorf("codeSpan(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := fenceFor("x ``` y"); got != "````" {
		t.Errorf("fenceFor = %q, want a fence longer than the backticks inside", got)
	}
}
