package index

import (
	"context"
	"slices"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
)

// facesDataset is one fictional server API error (err_code 20417) and the
// client sentinels that map its code in two packages of one module, whose
// text prints the code, beside the client's generic wrapper of any API
// error and an unrelated error.
func facesDataset(t *testing.T) *Index {
	t.Helper()
	code, status := 20417, 503
	plain := func(id, repo, pkg, name, qualified, msg string) errkbtest.Option {
		return func(r *errkb.Record) {
			r.ID, r.Slug, r.Repo, r.GoPackage = id, id, repo, pkg
			r.ErrorCode, r.QualifiedName, r.ErrorClass = name, qualified, ""
			r.ErrorMessage, r.MessagePattern = msg, msg
			r.TypeGuard, r.ExampleFix, r.ValidationCode, r.TryCatchPattern, r.SourceCode = "", "", "", "", ""
			r.Documentation, r.TriggerScenarios, r.CommonSituations = "", "", ""
			r.Solutions, r.PreventionTips = nil, nil
			r.NumericCode, r.HTTPStatus = nil, nil
		}
	}
	face := func(id, side, pkg string) errkb.Face { return errkb.Face{ID: id, Side: side, Package: pkg} }
	const srvPkg, cliPkg, streamPkg = "example.com/acme-labs/gizmod/server", "example.com/acme-labs/gizmo.go", "example.com/acme-labs/gizmo.go/stream"
	const printed = "gizmo: API error: code=503 err_code=20417 description=gizmo is jammed"
	recs := []*errkb.Record{
		errkbtest.Record(plain("f00dfeed0000a001", "acme-labs/gizmod", srvPkg, "GZJammedErr", "server.GZJammedErr", "gizmo is jammed"), func(r *errkb.Record) {
			r.Aliases, r.ErrorType, r.Surface = []string{"GZ_JAMMED"}, "api_error", errkb.SurfaceProtocol
			r.NumericCode, r.HTTPStatus = &code, &status
			r.Faces = []errkb.Face{face("f00dfeed0000a002", "client", cliPkg), face("f00dfeed0000a003", "client", streamPkg)}
		}),
		errkbtest.Record(plain("f00dfeed0000a002", "acme-labs/gizmo.go", cliPkg, "ErrJammed", "gizmo.ErrJammed", printed), func(r *errkb.Record) {
			r.Aliases, r.ErrorType, r.Surface, r.NumericCode = []string{"ERR_JAMMED"}, "sentinel", errkb.SurfaceReturned, &code
			r.Faces = []errkb.Face{face("f00dfeed0000a001", "server", srvPkg), face("f00dfeed0000a003", "client", streamPkg)}
		}),
		errkbtest.Record(plain("f00dfeed0000a003", "acme-labs/gizmo.go", streamPkg, "ErrJammed", "stream.ErrJammed", printed), func(r *errkb.Record) {
			r.Aliases, r.ErrorType, r.Surface, r.NumericCode = []string{"STREAM_ERR_JAMMED"}, "sentinel", errkb.SurfaceReturned, &code
			r.Faces = []errkb.Face{face("f00dfeed0000a001", "server", srvPkg), face("f00dfeed0000a002", "client", cliPkg)}
		}),
		errkbtest.Record(plain("f00dfeed0000a004", "acme-labs/gizmo.go", cliPkg, "APIError", "gizmo.APIError", "gizmo: API error: code=%d err_code=%d description=%s")),
		errkbtest.Record(plain("f00dfeed0000a005", "acme-labs/gizmod", srvPkg, "GZOverheatedErr", "server.GZOverheatedErr", "gizmo is overheated"), func(r *errkb.Record) {
			n := 20418
			r.ErrorType, r.NumericCode, r.HTTPStatus = "api_error", &n, &status
		}),
	}
	return buildIndex(t, errkbtest.Folder(recs...))
}

// TestLookupOneErrorManyFaces: the real name in every form, old names, the
// error's own numeric code and what clients print for it land on the
// record that is the error; a name two packages share is a choice.
func TestLookupOneErrorManyFaces(t *testing.T) {
	ix := facesDataset(t)
	const srv, cli, stream = "f00dfeed0000a001", "f00dfeed0000a002", "f00dfeed0000a003"
	for _, tc := range []struct {
		name, q, want string
		choice        []string // with no match, the records offered
	}{
		{"bare numeric code", "20417", srv, nil},
		{"nats.go-style APIError text", "gizmo: API error: code=503 err_code=20417 description=gizmo is jammed", srv, nil},
		{"the same inside a log line", "2026/11/30 10:00:00.123 reconcile: gizmo: API error: code=503 err_code=20417 description=gizmo is jammed", srv, nil},
		{"another description under the code", "gizmo: API error: code=503 err_code=20417 description=jammed by a sock", srv, nil},
		{"raw JSON API response", `{"type":"io.acme.gizmo.api.v1.start_response","error":{"code":503,"err_code":20417,"description":"gizmo is jammed"}}`, srv, nil},
		{"description and code in brackets", "com.acme.GizmoApiException: gizmo is jammed [20417]", srv, nil},
		{"description with code and error code", "Gizmo error: gizmo is jammed (code 503, error code 20417)", srv, nil},
		{"python-style class and fields", "gizmo: ServerError: code=503 err_code=20417 description='gizmo is jammed'", srv, nil},
		{"the server's name", "GZJammedErr", srv, nil},
		{"qualified", "server.GZJammedErr", srv, nil},
		{"module-qualified", "example.com/acme-labs/gizmod/server.GZJammedErr", srv, nil},
		{"old derived code", "GZ_JAMMED", srv, nil},
		{"a client alias", "STREAM_ERR_JAMMED", stream, nil},
		{"client qualified", "gizmo.ErrJammed", cli, nil},
		{"other package qualified", "stream.ErrJammed", stream, nil},
		{"other package module-qualified", "example.com/acme-labs/gizmo.go/stream.ErrJammed", stream, nil},
		{"bare name two packages share", "ErrJammed", "", []string{cli, stream}},
		{"another error's code", "20418", "f00dfeed0000a005", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := ix.Lookup(context.Background(), tc.q)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if res.Match != nil {
				got = res.Match.ID
			}
			if got != tc.want {
				t.Fatalf("Lookup(%q) = %q (%s), want %q", tc.q, got, res.Reason, tc.want)
			}
			var offered []string
			for _, h := range res.Alternatives {
				offered = append(offered, h.Record.ID)
			}
			for _, id := range tc.choice {
				if !slices.Contains(offered, id) {
					t.Errorf("alternatives %v lack %s", offered, id)
				}
			}
			if tc.want == srv {
				sr, err := ix.Search(context.Background(), Query{Text: tc.q})
				if err != nil || len(sr.Hits) == 0 || sr.Hits[0].Record.ID != srv {
					t.Errorf("Search(%q): first hit is not the error (%v)", tc.q, err)
				}
			}
		})
	}
}
