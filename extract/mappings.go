package extract

import (
	"cmp"
	"go/ast"
	"go/token"
	"slices"

	"github.com/errkb/errkb/extract/program"
)

// mapCodes finds where p's code turns a code into a sentinel: an if whose
// condition compares a value with a code constant (==, alone or joined
// by && or ||), or a switch case naming one, whose body returns a
// sentinel of the module. The comparison is the fact that the sentinel
// is the error the code stands for, so it is kept on the sentinel.
func (m *modIndex) mapCodes(p *program.Package) {
	s := m.scope(p)
	for _, f := range p.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.IfStmt:
				s.mapBody(s.comparedCodes(n.Cond), n.Body.List)
			case *ast.SwitchStmt:
				for _, st := range n.Body.List {
					cc := st.(*ast.CaseClause)
					var codes []codeAt
					for _, x := range cc.List {
						if n.Tag == nil {
							codes = append(codes, s.comparedCodes(x)...)
						} else if c := s.codeOf(x); c != nil {
							codes = append(codes, codeAt{c, x.Pos()})
						}
					}
					s.mapBody(codes, cc.Body)
				}
			}
			return true
		})
	}
}

// codeAt is a code constant named at a position.
type codeAt struct {
	code *Code
	pos  token.Pos
}

// comparedCodes are the code constants cond tests a value to be equal
// to: x == C, C == x, through parentheses, && and ||. A negated or
// unequal comparison says nothing of what the body returns.
func (s *scope) comparedCodes(cond ast.Expr) []codeAt {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return nil
	}
	switch b.Op {
	case token.LAND, token.LOR:
		return append(s.comparedCodes(b.X), s.comparedCodes(b.Y)...)
	case token.EQL:
		for _, side := range []ast.Expr{b.X, b.Y} {
			if c := s.codeOf(side); c != nil {
				return []codeAt{{c, b.Pos()}}
			}
		}
	}
	return nil
}

// codeOf is the module's code constant expr names, or nil.
func (s *scope) codeOf(expr ast.Expr) *Code {
	if c := s.constOf(expr); c != nil {
		return s.m.codes[key(c)]
	}
	return nil
}

// mapBody records, for each code, the sentinels the statements return
// directly (not those of nested blocks, which other conditions guard).
func (s *scope) mapBody(codes []codeAt, body []ast.Stmt) {
	if len(codes) == 0 {
		return
	}
	for _, st := range body {
		ret, ok := st.(*ast.ReturnStmt)
		if !ok {
			continue
		}
		for _, x := range ret.Results {
			e := s.m.sentinels[s.varKey(x)]
			if e == nil {
				continue
			}
			for _, c := range codes {
				if at, ok := s.where(c.pos); ok {
					e.Mapped = append(e.Mapped, Mapping{Code: *c.code, At: at})
				}
			}
		}
	}
}

// sortMappings orders mappings by place, without duplicates.
func sortMappings(ms []Mapping) []Mapping {
	slices.SortFunc(ms, func(a, b Mapping) int {
		return cmp.Or(cmp.Compare(a.At.File, b.At.File), cmp.Compare(a.At.Line, b.At.Line), cmp.Compare(a.Code.Name, b.Code.Name))
	})
	return slices.CompactFunc(ms, func(a, b Mapping) bool { return a.At == b.At && a.Code.Name == b.Code.Name })
}
