package web

import (
	"fmt"
	"html"
	"math"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	chromalexers "github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"

	"github.com/errkb/errkb/templates"
)

// Syntax highlighting with chroma: the code fields and source snippet of
// a record page, the code blocks of its Markdown, and the stylesheet rules
// they use. (index/ highlights matched words in search hits; that is
// another thing.)

// maxHighlightBytes bounds the code chroma tokenises. Its lexers are
// backtracking regular expressions; longer code is shown escaped but plain,
// so one odd record cannot hold a CPU.
const maxHighlightBytes = 32 << 10

// lexers remembers which lexer fits a file name or a fence's language.
// chroma's own lookup by file name tries the globs of every lexer, which
// cost more than tokenising a whole snippet; names repeat a lot across
// records, so the answer is kept, misses included.
type lexers struct{ m sync.Map } // "file:" or "lang:" + name -> chroma.Lexer (nil for none)

// forFile picks a lexer from a file's name ("server/api.go" -> Go), or nil
// when chroma knows no language for it.
func (lx *lexers) forFile(filePath string) chroma.Lexer {
	if filePath == "" {
		return nil
	}
	base := path.Base(filePath)
	// Go files, nearly every record's, share one entry: the standard
	// library alone has thousands of file names, each a miss that tried
	// every glob. No lexer claims a name ending in .go but Go's "*.go".
	key := "file:" + base
	if strings.HasSuffix(base, ".go") {
		key = "file:*.go"
	}
	return lx.lookup(key, func() chroma.Lexer { return chromalexers.Match(base) })
}

// named picks a lexer from a fenced code block's info string ("go",
// "python", "sh"), or nil.
func (lx *lexers) named(lang string) chroma.Lexer {
	lang = strings.ToLower(strings.TrimSpace(lang))
	if lang == "" || len(lang) > 40 {
		return nil
	}
	return lx.lookup("lang:"+lang, func() chroma.Lexer { return chromalexers.Get(lang) })
}

func (lx *lexers) lookup(key string, find func() chroma.Lexer) chroma.Lexer {
	if v, ok := lx.m.Load(key); ok {
		l, _ := v.(chroma.Lexer)
		return l
	}
	l := find()
	var v any = l
	if l == nil {
		v = false // sync.Map cannot hold a nil interface usefully
	}
	lx.m.Store(key, v)
	return l
}

// languageName is the lexer's display name, "" for none.
func languageName(l chroma.Lexer) string {
	if l == nil {
		return ""
	}
	return l.Config().Name
}

// highlightLines tokenises code with l and returns one HTML line per source
// line, without the newline. Every token is escaped and wrapped in a span
// whose class is chroma's short token class ("k", "s", "c1"), styled by
// highlightCSS; no inline styles, so the pages keep a strict CSP. Without a
// lexer, or on a tokeniser error, the lines are escaped only.
func highlightLines(l chroma.Lexer, code string) []templates.HTML {
	code = strings.TrimSuffix(code, "\n")
	if l == nil || len(code) > maxHighlightBytes {
		return plainLines(code)
	}
	it, err := chroma.Coalesce(l).Tokenise(nil, code+"\n")
	if err != nil {
		return plainLines(code)
	}
	tokenLines := chroma.SplitTokensIntoLines(it.Tokens())
	want := strings.Count(code, "\n") + 1
	if len(tokenLines) < want {
		return plainLines(code)
	}
	out := make([]templates.HTML, want)
	var b strings.Builder
	for i := range want {
		b.Reset()
		for _, t := range tokenLines[i] {
			writeToken(&b, t)
		}
		out[i] = templates.HTML(b.String())
	}
	return out
}

// highlightBlock is highlightLines joined into one block of HTML.
func highlightBlock(l chroma.Lexer, code string) templates.HTML {
	lines := highlightLines(l, code)
	parts := make([]string, len(lines))
	for i, ln := range lines {
		parts[i] = string(ln)
	}
	return templates.HTML(strings.Join(parts, "\n"))
}

func writeToken(b *strings.Builder, t chroma.Token) {
	v := strings.TrimSuffix(t.Value, "\n")
	if v == "" {
		return
	}
	cls := tokenClass(t.Type)
	if cls == "" || !styledClasses()[cls] {
		b.WriteString(html.EscapeString(v))
		return
	}
	b.WriteString(`<span class="`)
	b.WriteString(cls)
	b.WriteString(`">`)
	b.WriteString(html.EscapeString(v))
	b.WriteString(`</span>`)
}

// styledClasses are the token classes highlightCSS gives a rule. Tokens
// of other classes (whitespace, plain names) are written without a span,
// which keeps pages about half as large.
var styledClasses = sync.OnceValue(func() map[string]bool {
	set := map[string]bool{}
	for _, r := range highlightRules() {
		set[r.class] = true
	}
	return set
})

// tokenClass is chroma's CSS class for t, falling back to its parents
// (NameFunctionMagic -> NameFunction -> Name).
func tokenClass(t chroma.TokenType) string {
	for {
		if cls, ok := chroma.StandardTypes[t]; ok {
			return cls
		}
		p := t.Parent()
		if p == t {
			return ""
		}
		t = p
	}
}

func plainLines(code string) []templates.HTML {
	lines := strings.Split(code, "\n")
	out := make([]templates.HTML, len(lines))
	for i, l := range lines {
		out[i] = templates.HTML(html.EscapeString(l))
	}
	return out
}

// Code backgrounds of the stylesheet (--panel); token colours are adjusted
// until they reach WCAG AA contrast against them.
const (
	lightCodeBG = 0xf6f8fa
	darkCodeBG  = 0x161b22
)

// Text colours of the stylesheet (--fg). A token colour within a shade of
// them is left to the page, so such tokens need no span.
const (
	lightFG = 0x1b1f24
	darkFG  = 0xe6edf3
)

// The chroma styles used: GitHub's, light and dark.
const (
	lightStyle = "github"
	darkStyle  = "github-dark"
)

// highlightCSS is the stylesheet for highlighted code: GitHub's light
// colours, and GitHub's dark ones under prefers-color-scheme: dark. Only
// colour, weight and slant are taken from the styles; backgrounds come from
// the site's own stylesheet.
func highlightCSS() string {
	var b strings.Builder
	b.WriteString("\n/* Syntax highlighting, generated from chroma's " + lightStyle + " and " + darkStyle + " styles. */\n")
	rules := highlightRules()
	for _, r := range rules {
		fmt.Fprintf(&b, ".chroma .%s { %s }\n", r.class, r.light)
	}
	b.WriteString("@media (prefers-color-scheme: dark) {\n")
	for _, r := range rules {
		fmt.Fprintf(&b, "  .chroma .%s { %s }\n", r.class, r.dark)
	}
	b.WriteString("}\n")
	return b.String()
}

// cssRule is the declarations for one token class in light and dark mode.
// Both are complete (colour, weight, slant), so no rule of one mode leaks
// into the other.
type cssRule struct{ class, light, dark string }

// highlightRules has one rule per token class that either style sets
// apart from plain text, in a stable order.
func highlightRules() []cssRule {
	light, dark := styles.Get(lightStyle), styles.Get(darkStyle)
	types := make([]chroma.TokenType, 0, len(chroma.StandardTypes))
	for t, cls := range chroma.StandardTypes {
		// Negative types are chroma's layout classes (background, line
		// numbers); Error is kept so lexer errors stay visible.
		// Whitespace is left out: its colour only shows when whitespace is
		// drawn, which these pages never do.
		if cls != "" && (t >= chroma.Keyword || t == chroma.Error) && t != chroma.TextWhitespace {
			types = append(types, t)
		}
	}
	slices.Sort(types)
	var rules []cssRule
	for _, t := range types {
		l, lok := declFor(light, t, lightCodeBG, lightFG)
		d, dok := declFor(dark, t, darkCodeBG, darkFG)
		if lok || dok {
			rules = append(rules, cssRule{chroma.StandardTypes[t], l, d})
		}
	}
	return rules
}

// declFor is the CSS for token type t in style st on background bg, and
// whether it differs from plain text (colour fg) at all.
func declFor(st *chroma.Style, t chroma.TokenType, bg, fg int) (string, bool) {
	e, text, bgEntry := st.Get(t), st.Get(chroma.Text), st.Get(chroma.Background)
	styled := false
	colour := "inherit"
	// A colour equal to the style's plain text colour (which GitHub's dark
	// style repeats on names and punctuation) adds nothing.
	if e.Colour.IsSet() && e.Colour != text.Colour && e.Colour != bgEntry.Colour && !nearColour(int(e.Colour-1), fg) {
		colour, styled = readableColour(int(e.Colour-1), bg), true
	}
	weight, slant, deco := "inherit", "inherit", "inherit"
	if e.Bold == chroma.Yes {
		weight, styled = "600", true
	}
	if e.Italic == chroma.Yes {
		slant, styled = "italic", true
	}
	if e.Underline == chroma.Yes {
		deco, styled = "underline", true
	}
	return fmt.Sprintf("color: %s; font-weight: %s; font-style: %s; text-decoration: %s", colour, weight, slant, deco), styled
}

// readableColour moves fg towards black (light bg) or white (dark bg) until
// its contrast ratio with bg is at least 4.5, WCAG AA for normal text.
func readableColour(fg, bg int) string {
	dark := luminance(bg) < 0.5
	for range 40 {
		if contrast(fg, bg) >= 4.5 {
			break
		}
		fg = mix(fg, map[bool]int{true: 0xffffff, false: 0x000000}[dark], 0.08)
	}
	return fmt.Sprintf("#%06x", fg)
}

// nearColour reports whether two 0xRRGGBB colours differ by at most 16 in
// each channel.
func nearColour(a, b int) bool {
	for _, shift := range []int{16, 8, 0} {
		d := a>>shift&0xff - b>>shift&0xff
		if d < -16 || d > 16 {
			return false
		}
	}
	return true
}

func mix(a, b int, t float64) int {
	ch := func(x, y int) int { return int(math.Round(float64(x) + (float64(y)-float64(x))*t)) }
	r := ch(a>>16&0xff, b>>16&0xff)
	g := ch(a>>8&0xff, b>>8&0xff)
	bl := ch(a&0xff, b&0xff)
	return r<<16 | g<<8 | bl
}

// luminance is the WCAG relative luminance of an 0xRRGGBB colour.
func luminance(c int) float64 {
	lin := func(v int) float64 {
		s := float64(v) / 255
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c>>16&0xff) + 0.7152*lin(c>>8&0xff) + 0.0722*lin(c&0xff)
}

// contrast is the WCAG contrast ratio of two colours, from 1 to 21.
func contrast(a, b int) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}
