package extract

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/errkb/errkb/extract/program"
)

// declareBranches reads the methods that say an error's text: an Error
// method with several returns gives one pattern per return, a switch on
// the receiver gives each constant case its text, and a lookup in a
// package-level table (syscall's errors[e]) gives each index its text.
// nats-server's client close reasons are read the same way.
func (m *modIndex) declareBranches(p *program.Package) {
	s := m.scope(p)
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv == nil {
				continue
			}
			tn, _ := s.receiver(fd)
			if tn == nil {
				continue
			}
			recv := s.recvObject(fd)
			switch {
			case s.isErrorMethod(fd) && m.types[key(tn)] != nil:
				s.errorBranches(fd, tn, recv)
			case isCloseReasons(p, fd, tn):
				s.closeReasons(fd, recv)
			}
		}
	}
}

// recvObject is the receiver's variable, nil when it has no name.
func (s *scope) recvObject(fd *ast.FuncDecl) types.Object {
	if names := fd.Recv.List[0].Names; len(names) == 1 {
		return s.info.Defs[names[0]]
	}
	return nil
}

func (s *scope) errorBranches(fd *ast.FuncDecl, tn *types.TypeName, recv types.Object) {
	m := s.m
	cases, handled := s.switchReturns(fd.Body, recv)
	for c, b := range cases {
		m.cov.branches[key(c)] = b
	}
	if t := s.indexedTable(fd.Body, recv); len(t) > 0 {
		m.cov.tables[key(tn)] = t
	}
	t := m.types[key(tn)]
	type ret struct {
		format string
		fields []string
		at     Site
		conds  []cond
	}
	var rets []ret
	caseText := map[string]bool{}
	for _, b := range cases {
		caseText[strings.ReplaceAll(b.text, "%", "%%")] = true
	}
	s.walkReturns(fd.Body.List, nil, recv, func(r *ast.ReturnStmt, conds []cond) {
		if len(r.Results) != 1 || handled[r] {
			return
		}
		if format, fields, ok := s.returnFormat(r.Results[0], recv); ok {
			if at, ok := s.site(r, funcName(fd)); ok {
				rets = append(rets, ret{format, fields, at, conds})
			}
		}
	})
	if caseText[t.Message] && len(rets) > 0 {
		t.Message = rets[0].format // a switch's first case is not the type's message: what it says otherwise is
	}
	for _, r := range rets {
		if len(r.fields) > 0 {
			m.cov.formats[key(tn)] = append(m.cov.formats[key(tn)], branchFormat{typeFormat{format: r.format, fields: r.fields}, r.conds})
		}
		if r.format != t.Message {
			s.add(&Error{Kind: Call, Message: r.format}, r.at)
			continue
		}
		if _, has := m.formats[key(tn)]; !has && len(r.fields) > 0 {
			m.formats[key(tn)] = typeFormat{format: r.format, fields: r.fields} // a concatenation, rendered like a Sprintf
		}
	}
}

// inspectOwn visits the nodes of body outside function literals.
func inspectOwn(body ast.Node, fn func(ast.Node)) {
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if n != nil {
			fn(n)
		}
		return true
	})
}

// returnFormat is what an Error method returns as a format: a Sprintf's
// constant format, a constant, or a concatenation of constants and
// values ("op " + e.Op + ": " + e.Err.Error() is "op %v: %v"), with the
// receiver field each verb prints ("" when it prints something else).
func (s *scope) returnFormat(e ast.Expr, recv types.Object) (string, []string, bool) {
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok && s.calls(call, []string{"fmt"}, "Sprintf") && len(call.Args) > 0 {
		f, ok := s.constString(call.Args[0])
		if !ok {
			return "", nil, false
		}
		var fields []string
		for _, a := range call.Args[1:] {
			fields = append(fields, s.receiverField(a, recv))
		}
		return f, fields, true
	}
	return s.concatFields(e, recv)
}

// concatFields turns "a" + x + "b" into "a%vb", folding constants, with
// the receiver field each %v stands for; ok only when some part is
// constant text.
func (s *scope) concatFields(e ast.Expr, recv types.Object) (string, []string, bool) {
	var parts []ast.Expr
	var flatten func(ast.Expr)
	flatten = func(e ast.Expr) {
		e = ast.Unparen(e)
		if _, isConst := s.constString(e); !isConst {
			if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.ADD {
				flatten(b.X)
				flatten(b.Y)
				return
			}
		}
		parts = append(parts, e)
	}
	flatten(e)
	var b strings.Builder
	var fields []string
	lit := false
	for _, p := range parts {
		if str, ok := s.constString(p); ok {
			b.WriteString(strings.ReplaceAll(str, "%", "%%"))
			lit = true
			continue
		}
		b.WriteString("%v")
		fields = append(fields, s.receiverField(p, recv))
	}
	return b.String(), fields, lit
}

// switchReturns reads `switch recv { case C1, C2: return "text" }`: the
// text each constant case returns, and the returns it read.
func (s *scope) switchReturns(body *ast.BlockStmt, recv types.Object) (map[*types.Const]branch, map[*ast.ReturnStmt]bool) {
	out, handled := map[*types.Const]branch{}, map[*ast.ReturnStmt]bool{}
	if recv == nil {
		return out, handled
	}
	inspectOwn(body, func(n ast.Node) {
		sw, ok := n.(*ast.SwitchStmt)
		if !ok || !s.isRecv(sw.Tag, recv) {
			return
		}
		for _, st := range sw.Body.List {
			cc := st.(*ast.CaseClause)
			if len(cc.Body) == 0 {
				continue
			}
			ret, ok := cc.Body[0].(*ast.ReturnStmt)
			if !ok || len(ret.Results) != 1 {
				continue
			}
			text, ok := s.constString(ret.Results[0])
			if !ok {
				continue
			}
			at, ok := s.where(ret.Pos())
			if !ok {
				continue
			}
			for _, x := range cc.List {
				if c := s.constOf(x); c != nil {
					out[c] = branch{text: text, at: at}
					handled[ret] = true
				}
			}
		}
	})
	return out, handled
}

// isRecv reports recv, or a conversion of it (int(e)).
func (s *scope) isRecv(e ast.Expr, recv types.Object) bool {
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 1 {
		if tv, ok := s.info.Types[call.Fun]; ok && tv.IsType() {
			e = ast.Unparen(call.Args[0])
		}
	}
	id, ok := e.(*ast.Ident)
	return ok && recv != nil && s.info.Uses[id] == recv
}

// indexedTable reads table[recv] in an Error method, where table is a
// package-level variable of p initialised by a literal of constant
// strings: the text of each index, where the literal gives it.
func (s *scope) indexedTable(body *ast.BlockStmt, recv types.Object) map[int]branch {
	var table *types.Var
	inspectOwn(body, func(n ast.Node) {
		if ix, ok := n.(*ast.IndexExpr); ok && table == nil && s.isRecv(ix.Index, recv) {
			if v, ok := s.object(ix.X).(*types.Var); ok && isPackageLevel(v) && v.Pkg() == s.p.Types {
				table = v
			}
		}
	})
	if table == nil {
		return nil
	}
	out := map[int]branch{}
	for _, f := range s.p.Syntax {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, sp := range gd.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if s.info.Defs[name] != table || i >= len(vs.Values) {
						continue
					}
					if lit, ok := vs.Values[i].(*ast.CompositeLit); ok {
						s.tableEntries(lit, out)
					}
				}
			}
		}
	}
	return out
}

// tableEntries reads the constant strings of a slice or array literal by
// index: keyed (1: "…") or positional.
func (s *scope) tableEntries(lit *ast.CompositeLit, out map[int]branch) {
	next := 0
	for _, el := range lit.Elts {
		val := el
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			n, ok := s.intValue(kv.Key)
			if !ok {
				return
			}
			next, val = n, kv.Value
		}
		if text, ok := s.constString(val); ok && text != "" {
			if at, ok := s.where(el.Pos()); ok {
				out[next] = branch{text: text, at: at}
			}
		}
		next++
	}
}

// structLiteral makes a literal of an error type, inside a function, an
// error: its type's format (each of them, for an Error method with
// branches) with the literal's constant fields put in,
// the others left as verbs (&PathError{Op: "open", Path: name} is
// "open %v: %v"). A literal that fills in nothing is only a site of its
// type.
func (s *scope) structLiteral(lit *ast.CompositeLit, fn, own string) {
	if lit.Type == nil {
		return
	}
	k := s.typeKey(lit.Type)
	if k == "" || k == own {
		return
	}
	formats := s.m.cov.formats[k] // each branch: which one prints may depend on fields set later
	if len(formats) == 0 {
		tf, ok := s.m.formats[k]
		if !ok {
			return
		}
		formats = []branchFormat{{typeFormat: tf}}
	}
	values, known := s.fieldValues(lit), s.literalValues(lit)
	msgs, most := []string{}, 1
	for _, bf := range formats {
		if !reachable(bf.conds, known) {
			continue
		}
		// Of the rest, the branches that print the most of the literal's
		// fields: a branch that ignores a field the literal sets is
		// likely one it avoids.
		switch msg, n := fill(bf.typeFormat, values, ""); {
		case n > most:
			msgs, most = []string{msg}, n
		case n == most:
			msgs = append(msgs, msg)
		}
	}
	at, ok := s.site(lit, fn)
	for _, msg := range msgs {
		if ok {
			s.add(&Error{Kind: Call, Message: msg}, at)
		}
	}
}

// fill puts field values into a type's format: each verb whose field has
// a value that prints as stated is replaced; hole, when set, names the
// field that gets holeMsg. n counts the verbs replaced (0 when the
// format and its fields disagree).
func fill(tf typeFormat, values map[string]fieldValue, hole string) (string, int) {
	verbs := Verbs(tf.format)
	if len(verbs) != len(tf.fields) {
		return "", 0
	}
	var b strings.Builder
	last, n := 0, 0
	for i, v := range verbs {
		b.WriteString(tf.format[last:v.Start])
		last = v.End
		field := tf.fields[i]
		if field != "" && field == hole {
			b.WriteString(holeMsg)
			n++
			continue
		}
		val, ok := values[field]
		if field == "" || !ok || val.methods && v.Verb != 'd' {
			b.WriteString(tf.format[v.Start:v.End])
			continue
		}
		text := val.text
		if v.Verb == 'q' {
			text = strconv.Quote(text)
		}
		b.WriteString(strings.ReplaceAll(text, "%", "%%"))
		n++
	}
	b.WriteString(tf.format[last:])
	return b.String(), n
}

// branchFormat is one return of an Error method that prints fields, with
// the conditions on its way.
type branchFormat struct {
	typeFormat
	conds []cond
}
