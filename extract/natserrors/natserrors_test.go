package natserrors_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/errkb/errkb/extract"
	"github.com/errkb/errkb/extract/natserrors"
)

func TestTable(t *testing.T) {
	const root = "testdata/fakeserver"
	table, err := natserrors.Open(root, "example.com/acme/fakeserver")
	if err != nil || table == nil {
		t.Fatalf("Open = %v, %v", table, err)
	}
	res, err := extract.Dir(root, extract.Options{TrackCalls: table.Track()})
	if err != nil {
		t.Fatal(err)
	}
	errs := table.Errors(res.Calls)
	byName := map[string]extract.Error{}
	for _, e := range errs {
		byName[e.Name] = e
	}
	notFound := byName["JSWidgetNotFoundErr"]
	if notFound.Kind != extract.API || notFound.Message != "widget not found" || notFound.HTTPStatus != 404 ||
		notFound.Code == nil || notFound.Code.Value != 90001 {
		t.Errorf("JSWidgetNotFoundErr = %+v", notFound)
	}
	if notFound.File != "server/jetstream_errors_generated.go" || notFound.Line != 27 {
		t.Errorf("defined at %s:%d, want the constructor at server/jetstream_errors_generated.go:27", notFound.File, notFound.Line)
	}
	if lines := siteLines(notFound.Sites); !slices.Equal(lines, []int{5, 10}) {
		t.Errorf("call sites at lines %v, want 5 and 10 of server/api.go", lines)
	}
	bent := byName["JSWidgetBentErrF"]
	if bent.Message != "widget {name} is bent by {degrees} degrees" || bent.Doc != "Returned when a widget cannot be straightened" ||
		!slices.Equal(siteLines(bent.Sites), []int{8}) {
		t.Errorf("JSWidgetBentErrF = %+v", bent)
	}
	// An entry without a generated constructor is defined at its line of errors.json.
	if unused := byName["JSWidgetUnusedErr"]; unused.File != "server/errors.json" || unused.Line != 23 || len(unused.Sites) != 0 {
		t.Errorf("JSWidgetUnusedErr = %+v", unused)
	}
	recs, err := extract.Records(errs, root, extract.Origin{Repo: "acme-labs/fakeserver", Ref: "v0.1.0", Module: "example.com/acme/fakeserver"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Slug == "js-widget-not-found" {
			if r.ErrorCode != "JSWidgetNotFoundErr" || r.QualifiedName != "server.JSWidgetNotFoundErr" ||
				!slices.Equal(r.Aliases, []string{"JS_WIDGET_NOT_FOUND"}) || *r.NumericCode != 90001 || *r.HTTPStatus != 404 ||
				r.TypeGuard != "var apiErr *server.ApiError\nerrors.As(err, &apiErr) && apiErr.ErrCode == 90001 // server.JSWidgetNotFoundErr" {
				t.Errorf("record %+v", r)
			}
			if r.SourceCodeStart != 26 || r.SourceCodeEnd != 29 || !strings.HasPrefix(r.SourceCode, "// NewJSWidgetNotFoundError creates") {
				t.Errorf("snippet %d-%d %q, want the constructor with its doc comment", r.SourceCodeStart, r.SourceCodeEnd, r.SourceCode)
			}
			return
		}
	}
	t.Errorf("no record js-widget-not-found among %d", len(recs))
}

func siteLines(sites []extract.Site) []int {
	var out []int
	for _, s := range sites {
		out = append(out, s.Line)
	}
	return out
}

func TestNotNatsServer(t *testing.T) {
	table, err := natserrors.Open(t.TempDir(), "example.com/acme/other")
	if table != nil || err != nil {
		t.Errorf("Open of a module without errors.json = %v, %v; want nil, nil", table, err)
	}
}
