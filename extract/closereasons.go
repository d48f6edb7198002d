package extract

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract/program"
)

// isCloseReasons reports nats-server's ClosedState.String: the reasons a
// client connection was closed, which the server logs and reports in
// connz (reason) to clients and operators.
func isCloseReasons(p *program.Package, fd *ast.FuncDecl, tn *types.TypeName) bool {
	return strings.HasPrefix(p.PkgPath, "github.com/nats-io/nats-server/") &&
		tn.Name() == "ClosedState" && fd.Name.Name == "String"
}

// closeReasons makes each case of ClosedState.String a protocol error,
// named by its constant, so its sites are where connections are closed
// with it.
func (s *scope) closeReasons(fd *ast.FuncDecl, recv types.Object) {
	cases, _ := s.switchReturns(fd.Body, recv)
	for c, b := range cases {
		if !isPackageLevel(c) || c.Pkg() != s.p.Types {
			continue
		}
		s.m.sentinels[key(c)] = &Error{Kind: Protocol, Surface: errkb.SurfaceProtocol, Package: s.p.PkgPath, PkgName: s.p.Name,
			Name: c.Name(), Message: b.text, Where: b.at, Internal: s.p.Internal}
	}
}
