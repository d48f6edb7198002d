package web

import (
	"strconv"
	"strings"
	"testing"
)

func TestHighlightLines(t *testing.T) {
	for _, tc := range []struct {
		name, file, code string
		want             []string // substrings of each line's HTML
	}{
		{"go keyword and string", "server/api.go", "if x {\n\treturn \"<b>\"\n}",
			// Plain names, spaces and punctuation get no span.
			[]string{`<span class="k">if</span> x {`, "\t<span class=\"k\">return</span> <span class=\"s\">&#34;&lt;b&gt;&#34;</span>", `}`}},
		{"python comment", "db/cluster.py", "# <script>\nx = 1",
			[]string{`<span class="c1"># &lt;script&gt;</span>`, `x`}},
		{"unknown language is escaped only", "README.unknownext", "<img src=x>\nline two",
			[]string{`&lt;img src=x&gt;`, `line two`}},
		{"no file name", "", "a < b", []string{`a &lt; b`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := highlightLines((&lexers{}).forFile(tc.file), tc.code)
			if len(got) != len(tc.want) {
				t.Fatalf("%d lines, want %d: %q", len(got), len(tc.want), got)
			}
			for i, w := range tc.want {
				if !strings.Contains(string(got[i]), w) {
					t.Errorf("line %d = %q, want it to contain %q", i+1, got[i], w)
				}
				if strings.Contains(string(got[i]), "<script") || strings.Contains(string(got[i]), "<img") || strings.Contains(string(got[i]), "style=") {
					t.Errorf("line %d holds unescaped markup or inline style: %q", i+1, got[i])
				}
			}
		})
	}
}

// TestHighlightKeepsLineCount: the snippet's line numbers come from the
// record, so highlighting must give exactly one HTML line per source line,
// also for code that opens a string or comment it never closes.
func TestHighlightKeepsLineCount(t *testing.T) {
	for _, code := range []string{"a\n\nb\n", "/* open comment\nstill\n", "`raw\nstring", "\n\n", "x"} {
		want := strings.Count(strings.TrimSuffix(code, "\n"), "\n") + 1
		for _, file := range []string{"a.go", "a.js", "a.py", "a.txt"} {
			if got := highlightLines((&lexers{}).forFile(file), code); len(got) != want {
				t.Errorf("%s %q: %d lines, want %d", file, code, len(got), want)
			}
		}
	}
}

func TestHighlightCSSContrast(t *testing.T) {
	css := highlightCSS()
	if !strings.Contains(css, "@media (prefers-color-scheme: dark)") {
		t.Fatal("no dark rules")
	}
	light, dark, _ := strings.Cut(css, "@media")
	// Every class has a rule in both modes, so light colours never show
	// on the dark background.
	if nl, nd := strings.Count(light, ".chroma ."), strings.Count(dark, ".chroma ."); nl != nd || nl == 0 {
		t.Errorf("%d light rules, %d dark rules", nl, nd)
	}
	for _, r := range highlightRules() {
		for _, m := range []struct {
			decl string
			bg   int
		}{{r.light, lightCodeBG}, {r.dark, darkCodeBG}} {
			_, hex, ok := strings.Cut(m.decl, "color: #")
			if !ok {
				continue // inherits the text colour
			}
			c64, err := strconv.ParseInt(hex[:6], 16, 32)
			if err != nil {
				t.Fatalf(".%s: bad colour in %q", r.class, m.decl)
			}
			if c := int(c64); contrast(c, m.bg) < 4.5 {
				t.Errorf(".%s: colour %06x on %06x has contrast %.2f < 4.5", r.class, c, m.bg, contrast(c, m.bg))
			}
		}
	}
}

func TestMarkdownCodeBlocks(t *testing.T) {
	md := newMarkdown(&lexers{})
	got := string(renderMarkdown(md, "Run `a <b>`:\n\n```go\nif x { return }\n```\n\n```\n<script>plain</script>\n```\n"))
	for _, want := range []string{
		"<code>a &lt;b&gt;</code>",
		`<span class="lang">Go</span></div><pre class="chroma"><code><span class="k">if</span>`,
		"&lt;script&gt;plain&lt;/script&gt;",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("rendered Markdown lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "<script>") {
		t.Errorf("raw script in output:\n%s", got)
	}
}

// BenchmarkHighlightSnippet is chroma's share of a record page: the seed
// record's 37-line Go snippet.
func BenchmarkHighlightSnippet(b *testing.B) {
	ds := loadPages(b)
	r, _ := ds.ByPath("nats-io/nats-server", "js-consumer-offline")
	lx := &lexers{}
	for b.Loop() {
		highlightLines(lx.forFile(r.FilePath), r.SourceCode)
	}
}

// BenchmarkMarkdown is the Markdown share: every prose field of the seed.
func BenchmarkMarkdown(b *testing.B) {
	ds := loadPages(b)
	r, _ := ds.ByPath("nats-io/nats-server", "js-consumer-offline")
	md := newMarkdown(&lexers{})
	for b.Loop() {
		for _, f := range append([]string{r.Documentation, r.TriggerScenarios, r.CommonSituations}, append(r.Solutions, r.PreventionTips...)...) {
			renderMarkdown(md, f)
		}
	}
}
