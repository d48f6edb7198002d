package explain

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
)

// factsOf are the texts and links every format must carry for r: each
// derived fact's link, its condition, check and test as written.
func factsOf(r *errkb.Record) []string {
	out := []string{r.ErrorClass, "10071", "503", Surface(r)}
	for _, f := range r.Faces {
		out = append(out, f.Name, f.GithubURL, f.Package)
	}
	for _, c := range r.Conditions {
		out = append(out, c.Function, c.GithubURL)
		for _, g := range c.Guards {
			out = append(out, g.Expr, g.GithubURL)
		}
		for _, s := range c.Settings {
			out = append(out, s.ConfigKey, s.GithubURL, s.ConfigAt.GithubURL)
		}
	}
	for _, e := range r.ReturnedBy {
		out = append(out, e.GithubURL)
		for _, c := range e.Chain {
			out = append(out, c.GithubURL)
		}
	}
	for _, h := range r.HandledAt {
		out = append(out, h.GithubURL, "return p.unjam()")
	}
	for _, t := range r.Tests {
		out = append(out, t.Name, t.GithubURL)
	}
	for _, d := range r.Docs {
		out = append(out, d.GithubURL, d.Text)
	}
	for _, c := range r.CallSites {
		out = append(out, c.GithubURL)
	}
	out = append(out, r.History.FirstVersion, r.History.Messages[0].Message, "v1.2.0")
	return out
}

func render(t *testing.T, r *errkb.Record) (text, md string) {
	t.Helper()
	var tb, mb bytes.Buffer
	if err := Text(&tb, r, "https://kb.example"); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&mb, r, "https://kb.example"); err != nil {
		t.Fatal(err)
	}
	return tb.String(), mb.String()
}

// TestFormatsCarryTheFacts: the terminal text and the Markdown carry
// every derived fact, in page order, with the same headline.
func TestFormatsCarryTheFacts(t *testing.T) {
	r := errkbtest.Record(errkbtest.Knowledge(4), errkbtest.Face("f00dfeed00000002", "server", "example.com/acme-labs/gizmo/server", "server.JammedErr", "err_code 10071", 5))
	text, md := render(t, r)
	// Markdown escapes punctuation in our words; the facts are compared
	// as a reader sees them.
	md = regexp.MustCompile(`\\([[:punct:]])`).ReplaceAllString(md, "$1")
	for name, out := range map[string]string{"text": text, "markdown": md} {
		for _, want := range factsOf(r) {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
		if !strings.HasPrefix(strings.TrimLeft(out, "# "), "gizmo.ErrJammed") {
			t.Errorf("%s: headline is not the qualified name: %.40q", name, out)
		}
		order := []string{"What it is", "The same error elsewhere", "When it happens", "Trigger scenarios", "How it reaches you",
			"How to check for it", "What the project does on it", "Reproduced by", "Documentation", "Where it is raised", "Source"}
		last := -1
		for _, h := range order {
			i := strings.Index(out, h)
			if i < 0 {
				t.Errorf("%s lacks section %q", name, h)
				continue
			}
			if i < last {
				t.Errorf("%s: section %q out of order", name, h)
			}
			last = i
		}
		if !strings.Contains(out, r.Documentation[:20]) || strings.Index(out, r.Documentation[:20]) < strings.Index(out, "Documentation\n") {
			t.Errorf("%s: an extracted record's documentation is not under Documentation", name)
		}
		if !strings.Contains(out, r.TypeGuard) {
			t.Errorf("%s: a returned error's guard is missing", name)
		}
		if !strings.Contains(out, "https://kb.example/lookup?q=f00dfeed00000002") {
			t.Errorf("%s: the face does not link to its page", name)
		}
	}
}

func TestGuardBySurface(t *testing.T) {
	code := 10059
	api := func(r *errkb.Record) {
		r.ErrorType, r.NumericCode, r.TypeGuard = "api_error", &code, "var apiErr *server.ApiError"
	}
	for _, tc := range []struct {
		name      string
		opts      []errkbtest.Option
		want, not []string
	}{
		{"returned", []errkbtest.Option{errkbtest.Surface(errkb.SurfaceReturned)}, []string{"errors.Is(err, ErrJammed)", "Returned to callers"}, nil},
		{"unknown surface", nil, []string{"errors.Is(err, ErrJammed)"}, []string{"Where you meet it"}},
		{"log", []errkbtest.Option{errkbtest.Surface(errkb.SurfaceLog)}, []string{"writes this to its log"}, []string{"errors.Is(err, ErrJammed)", "How to check for it"}},
		{"startup", []errkbtest.Option{errkbtest.Surface(errkb.SurfaceStartup)}, []string{"Refuses to start"}, []string{"How to check for it"}},
		{"api error", []errkbtest.Option{api, errkbtest.Surface(errkb.SurfaceProtocol),
			errkbtest.Face("c1", "client", "github.com/nats-io/nats.go", "nats.ErrStreamNotFound", "err_code 10059", 3)},
			[]string{"errors.As(err, &apiErr) && apiErr.ErrorCode == 10059", "errors.Is(err, nats.ErrStreamNotFound)", "var apiErr *nats.APIError"},
			[]string{"server.ApiError"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text, md := render(t, errkbtest.Record(tc.opts...))
			for name, out := range map[string]string{"text": text, "markdown": md} {
				for _, w := range tc.want {
					if !strings.Contains(out, w) {
						t.Errorf("%s lacks %q:\n%s", name, w, out)
					}
				}
				for _, n := range tc.not {
					if strings.Contains(out, n) {
						t.Errorf("%s has %q", name, n)
					}
				}
			}
		})
	}
}

func TestSeverityStated(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []errkbtest.Option
		want bool
	}{
		{"extracted default", nil, false},
		{"extracted fatal", []errkbtest.Option{func(r *errkb.Record) { r.Severity = "fatal" }}, true},
		{"logged", []errkbtest.Option{errkbtest.Surface(errkb.SurfaceLog)}, true},
		{"curated", []errkbtest.Option{errkbtest.Sources(errkb.Citation{URL: "https://example.com/a", Note: "a"})}, true},
	} {
		if got := SeverityStated(errkbtest.Record(tc.opts...)); got != tc.want {
			t.Errorf("%s: SeverityStated = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestDedent(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"\t\tif x {\n\t\t\ty()\n\t\t}\n", "if x {\n\ty()\n}"},
		{"\tif x {\n\n\t}", "if x {\n\n}"},
		{"\t\ta\n\tb", "\ta\nb"},
		{"a\n\tb", "a\n\tb"},
	} {
		if got := dedent(tc.in); got != tc.want {
			t.Errorf("dedent(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestClosesAndDiffers: a logged error after which the code closes the
// connection says the client is dropped and links the call, in every
// format; a curated record whose code moved shows both places.
func TestClosesAndDiffers(t *testing.T) {
	r := errkbtest.Record()
	r.Surface = errkb.SurfaceLog
	r.Closes = []errkb.Closing{{Call: "(*client).closeConnection", Function: "(*client).readLoop", FilePath: "server/client.go", LineNumber: 1645,
		GithubURL: "https://github.com/acme-labs/gizmo/blob/v1.2.0/server/client.go#L1645"}}
	r.Extracted = &errkb.Extracted{Version: "v1.2.0", Differs: []errkb.Difference{{Field: "location", Curated: "gizmo.go line 10",
		Extracted: "gizmo_errors.go line 99", GithubURL: "https://github.com/acme-labs/gizmo/blob/v1.2.0/gizmo_errors.go#L99"}}}
	text, md := render(t, r)
	md = regexp.MustCompile(`\\([[:punct:]])`).ReplaceAllString(md, "$1")
	for name, out := range map[string]string{"text": text, "markdown": md} {
		for _, want := range []string{"closes the connection: the client is dropped", ClosesWords, "(*client).closeConnection",
			"server/client.go:1645", r.Closes[0].GithubURL, DiffersTitle, "gizmo.go line 10", "gizmo_errors.go line 99",
			r.Extracted.Differs[0].GithubURL, "At v1.2.0 the code reads otherwise"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
	}
	r.Closes = nil
	if s := Surface(r); strings.Contains(s, "closes") {
		t.Errorf("without a closing call the surface says %q", s)
	}
}
