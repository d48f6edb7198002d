package extract

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract/program"
)

// ctor is a constructor found by data flow: a function whose error's
// message is one of its parameters, so that each call passing a
// constant there makes a known error.
type ctor struct {
	msg    int    // index of the message parameter
	format bool   // the message is a printf format of the arguments after it
	tmpl   string // the error's text: holeMsg where the message goes, holeCode where the code's name goes
	quote  bool   // the message is printed with %q
	code   int    // index of a gRPC codes.Code parameter; -1 for none
	fixed  *Code  // the code it always gives, when its body names one
	kind   Kind   // Call, or Protocol for a sender of -ERR lines
}

const (
	holeMsg  = "\x00"
	holeCode = "\x01"
)

// grpcStatus is gRPC's rendering of a status as an error
// (google.golang.org/grpc/internal/status, (*Status).String).
const grpcStatus = "rpc error: code = " + holeCode + " desc = " + holeMsg

// seedCtors are the constructors data flow cannot see through: gRPC's
// status package keeps the message in a protobuf and renders it in
// (*Status).String, so its functions are named here.
func seedCtors() map[string]*ctor {
	out := map[string]*ctor{}
	for _, pkg := range []string{"google.golang.org/grpc/status.", "google.golang.org/grpc/internal/status."} {
		out[pkg+"New"] = &ctor{msg: 1, code: 0, tmpl: grpcStatus, kind: Call}
		out[pkg+"Newf"] = &ctor{msg: 1, format: true, code: 0, tmpl: grpcStatus, kind: Call}
		out[pkg+"Errorf"] = &ctor{msg: 1, format: true, code: 0, tmpl: grpcStatus, kind: Call}
	}
	out["google.golang.org/grpc/status.Error"] = &ctor{msg: 1, code: 0, tmpl: grpcStatus, kind: Call}
	out["google.golang.org/grpc/internal/status.Err"] = &ctor{msg: 1, code: 0, tmpl: grpcStatus, kind: Call}
	return out
}

// findConstructors finds the module's constructors, to a fixed point: a
// function that passes its parameter to errors.New, fmt.Errorf, a field
// of an error type's literal, a -ERR format or a constructor found
// before is one.
func (m *modIndex) findConstructors() {
	for round := 0; round < 8; round++ {
		found := false
		for _, p := range m.prog.Packages {
			if m.constructorsOf(p) {
				found = true
			}
		}
		if !found {
			return
		}
	}
}

func (m *modIndex) constructorsOf(p *program.Package) bool {
	s := m.scope(p)
	found := false
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			obj, ok := s.info.Defs[fd.Name].(*types.Func)
			if !ok || m.cov.ctors[obj.FullName()] != nil {
				continue
			}
			if c := s.derive(fd.Body, obj.Signature()); c != nil {
				m.cov.ctors[obj.FullName()] = c
				found = true
			}
		}
	}
	return found
}

// derive is the constructor a function with body and sig is, or nil.
func (s *scope) derive(body *ast.BlockStmt, sig *types.Signature) *ctor {
	returnsErr := sig.Results().Len() >= 1 && isError(sig.Results().At(0).Type())
	var found *ctor
	inspectOwn(body, func(n ast.Node) {
		if found != nil {
			return
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			found = s.deriveCall(n, sig, returnsErr)
		case *ast.CompositeLit:
			if returnsErr {
				found = s.deriveLiteral(n, sig)
			}
		}
	})
	return found
}

func (s *scope) deriveCall(call *ast.CallExpr, sig *types.Signature, returnsErr bool) *ctor {
	if len(call.Args) == 0 {
		return nil
	}
	if returnsErr && (s.calls(call, errorsPkgs, "New") || s.calls(call, []string{"fmt"}, "Errorf") || s.calls(call, errorsPkgs, "Errorf")) {
		if i, format, wrap, ok := s.paramMsg(call.Args[0], sig); ok {
			isErrorf := !s.calls(call, errorsPkgs, "New")
			return &ctor{msg: i, format: format || isErrorf && forwards(call, sig), tmpl: wrap, code: -1, kind: Call}
		}
		return nil
	}
	if s.calls(call, []string{"fmt"}, "Sprintf") {
		return s.deriveProtocol(call, sig)
	}
	fn, _ := typeutil.Callee(s.info, call).(*types.Func)
	if fn == nil {
		return nil
	}
	c := s.m.cov.ctors[fn.Origin().FullName()]
	if c == nil || c.msg >= len(call.Args) || c.kind == Call && !returnsErr {
		return nil
	}
	i, format, wrap, ok := s.paramMsg(call.Args[c.msg], sig)
	if !ok {
		return nil
	}
	out := &ctor{msg: i, format: format || c.format && forwards(call, sig), tmpl: strings.Replace(c.tmpl, holeMsg, wrap, 1), quote: c.quote, code: -1, fixed: c.fixed, kind: c.kind}
	if c.code >= 0 && c.code < len(call.Args) {
		if j, ok := s.param(call.Args[c.code], sig); ok {
			out.code = j
		} else if code := s.codeConst(call.Args[c.code]); code != nil {
			out.fixed = code
		}
	}
	return out
}

// deriveProtocol reads fmt.Sprintf(F, …, param, …) where F is a -ERR
// line of the NATS protocol: the function sends that error to clients.
func (s *scope) deriveProtocol(call *ast.CallExpr, sig *types.Signature) *ctor {
	format, ok := s.constString(call.Args[0])
	if !ok || !strings.HasPrefix(format, "-ERR ") {
		return nil
	}
	verbs := Verbs(format)
	for k, a := range call.Args[1:] {
		if i, ok := s.param(a, sig); ok && k < len(verbs) && isString(sig.Params().At(i).Type()) {
			tmpl := format[:verbs[k].Start] + holeMsg + format[verbs[k].End:]
			return &ctor{msg: i, tmpl: strings.TrimRight(tmpl, "\r\n"), quote: verbs[k].Verb == 'q', code: -1, kind: Protocol}
		}
	}
	return nil
}

// deriveLiteral reads a literal of an error type whose field is given a
// parameter: its message is the type's format with the parameter there.
// Only where that is certain: the type's Error has one format that
// prints fields (no branch a call's other arguments could choose), and
// one field of the literal takes a string parameter (NewHandlerError(op,
// name, reason, err) fills three: which one a call's constant is the
// message of is not one answer).
func (s *scope) deriveLiteral(lit *ast.CompositeLit, sig *types.Signature) *ctor {
	if lit.Type == nil {
		return nil
	}
	k := s.typeKey(lit.Type)
	tf, ok := s.m.formats[k]
	if !ok || len(s.m.cov.formats[k]) > 1 {
		return nil
	}
	var found *ctor
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		field, ok := kv.Key.(*ast.Ident)
		if !ok {
			continue
		}
		i, format, wrap, ok := s.paramMsg(kv.Value, sig)
		if !ok {
			continue
		}
		if found != nil {
			return nil
		}
		tmpl, n := fill(tf, s.fieldValues(lit), field.Name)
		if n == 0 || !strings.Contains(tmpl, holeMsg) {
			return nil
		}
		quote := false
		for j, v := range Verbs(tf.format) {
			quote = quote || tf.fields[j] == field.Name && v.Verb == 'q'
		}
		found = &ctor{msg: i, format: format, tmpl: strings.Replace(tmpl, holeMsg, wrap, 1), quote: quote, code: -1, kind: Call}
	}
	return found
}

// param is the index of the parameter of sig that e names.
func (s *scope) param(e ast.Expr, sig *types.Signature) (int, bool) {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return 0, false
	}
	obj := s.info.Uses[id]
	for i := range sig.Params().Len() {
		if sig.Params().At(i) == obj {
			return i, true
		}
	}
	return 0, false
}

// paramMsg is the string parameter e carries as a message: the
// parameter itself, fmt.Sprintf(param, …) (a format), or the parameter
// between constants ("widget: " + msg). wrap is the text around it, with
// holeMsg in its place.
func (s *scope) paramMsg(e ast.Expr, sig *types.Signature) (i int, format bool, wrap string, ok bool) {
	e = ast.Unparen(e)
	if call, isCall := e.(*ast.CallExpr); isCall && s.calls(call, []string{"fmt"}, "Sprintf") && len(call.Args) > 0 {
		i, ok = s.param(call.Args[0], sig)
		return i, true, holeMsg, ok && isString(sig.Params().At(i).Type())
	}
	if b, isAdd := e.(*ast.BinaryExpr); isAdd && b.Op == token.ADD {
		return s.paramConcat(b, sig)
	}
	i, ok = s.param(e, sig)
	return i, false, holeMsg, ok && isString(sig.Params().At(i).Type())
}

// paramConcat reads constants and one string parameter added together.
func (s *scope) paramConcat(e *ast.BinaryExpr, sig *types.Signature) (int, bool, string, bool) {
	var b strings.Builder
	found := -1
	var walk func(ast.Expr) bool
	walk = func(x ast.Expr) bool {
		x = ast.Unparen(x)
		if str, ok := s.constString(x); ok {
			b.WriteString(str)
			return true
		}
		if bin, ok := x.(*ast.BinaryExpr); ok && bin.Op == token.ADD {
			return walk(bin.X) && walk(bin.Y)
		}
		i, ok := s.param(x, sig)
		if !ok || found >= 0 || !isString(sig.Params().At(i).Type()) {
			return false
		}
		found = i
		b.WriteString(holeMsg)
		return true
	}
	if !walk(e) || found < 0 {
		return 0, false, "", false
	}
	return found, false, b.String(), true
}

// forwards reports a call that passes on its caller's variadic
// arguments (f(format, a...)): the message is then a format.
func forwards(call *ast.CallExpr, sig *types.Signature) bool {
	return call.Ellipsis.IsValid() && sig.Variadic()
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// codeConst is the gRPC code constant e names (codes.Unavailable), or nil.
func (s *scope) codeConst(e ast.Expr) *Code {
	c, ok := s.object(e).(*types.Const)
	if !ok || !isPackageLevel(c) || c.Pkg().Path() != "google.golang.org/grpc/codes" {
		return nil
	}
	v, exact := constantInt(c)
	if !exact {
		return nil
	}
	return &Code{Name: c.Name(), Value: v, Package: c.Pkg().Path(), PkgName: c.Pkg().Name()}
}

// ctorCall makes a call of a constructor with a constant message an
// error: gRPC's status.Errorf(codes.Unavailable, "…"), a project's own
// newError("…").
func (s *scope) ctorCall(call *ast.CallExpr, fn string) {
	callee, _ := typeutil.Callee(s.info, call).(*types.Func)
	if callee == nil {
		return
	}
	c := s.m.cov.ctors[callee.Origin().FullName()]
	if c == nil || c.msg >= len(call.Args) {
		return
	}
	msg, wraps, ok := s.messageArg(call.Args[c.msg])
	if !ok || !hasWords(msg) {
		return
	}
	if c.quote {
		msg = strconv.Quote(msg)
	}
	code := c.fixed
	if c.code >= 0 && c.code < len(call.Args) {
		code = s.codeConst(call.Args[c.code])
	}
	codeName := "%v"
	if code != nil {
		codeName = code.Name
	}
	e := &Error{Kind: c.kind, Code: code, Wraps: wraps,
		Message: strings.NewReplacer(holeMsg, msg, holeCode, codeName).Replace(c.tmpl)}
	if c.kind == Protocol {
		e.Surface = errkb.SurfaceProtocol
	}
	if at, ok := s.site(call, fn); ok {
		s.add(e, at)
	}
}

// protocolLine makes fmt.Sprintf of a -ERR line with constant arguments
// an error sent to clients: nats-server's
// fmt.Sprintf(errProto, "Stale Connection").
func (s *scope) protocolLine(call *ast.CallExpr, fn string) {
	if len(call.Args) < 2 || !s.calls(call, []string{"fmt"}, "Sprintf") {
		return
	}
	format, ok := s.constString(call.Args[0])
	if !ok || !strings.HasPrefix(format, "-ERR ") {
		return
	}
	var b strings.Builder
	last := 0
	for k, v := range Verbs(format) {
		b.WriteString(format[last:v.Start])
		last = v.End
		text, ok := "", false
		if k+1 < len(call.Args) {
			text, ok = s.constString(call.Args[k+1])
		}
		if !ok {
			return // a line with a value sent by a sender of -ERR lines is read there
		}
		b.WriteString(text)
	}
	b.WriteString(format[last:])
	if at, ok := s.site(call, fn); ok {
		s.add(&Error{Kind: Protocol, Surface: errkb.SurfaceProtocol, Message: strings.TrimRight(b.String(), "\r\n")}, at)
	}
}

// messageArg is the message an argument gives a constructor: a constant,
// the format of fmt.Sprintf (a pattern), or a known sentinel's text
// (ErrX.Error()), which the error then wraps.
func (s *scope) messageArg(e ast.Expr) (string, []string, bool) {
	if msg, ok := s.constString(e); ok {
		return msg, nil, true
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return "", nil, false
	}
	if s.calls(call, []string{"fmt"}, "Sprintf") && len(call.Args) > 0 {
		msg, ok := s.constString(call.Args[0])
		return msg, nil, ok
	}
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Error" && len(call.Args) == 0 {
		if k := s.sentinelKey(sel.X); k != "" && s.m.sentinels[k] != nil {
			return s.m.sentinels[k].Message, []string{k}, true
		}
	}
	return "", nil, false
}
