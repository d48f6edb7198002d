package extract

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/errkb/errkb/extract/program"
)

// typeDecl is a type's declaration: its spec and doc comment.
type typeDecl struct {
	spec *ast.TypeSpec
	doc  string
}

// typeDecls maps each package-level type of p to its declaration.
func typeDecls(p *program.Package) map[*types.TypeName]typeDecl {
	out := map[*types.TypeName]typeDecl{}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, sp := range gd.Specs {
				ts := sp.(*ast.TypeSpec)
				tn, ok := p.TypesInfo.Defs[ts.Name].(*types.TypeName)
				if !ok {
					continue
				}
				doc := docText(ts.Doc, gd.Doc, ts.Comment)
				if gd.Lparen.IsValid() {
					doc = docText(ts.Doc, ts.Comment) // a group's doc is not each type's
				}
				out[tn] = typeDecl{spec: ts, doc: doc}
			}
		}
	}
	return out
}

// declareTypes finds the error types of p: named types with a declared
// Error() string method, with the message or format that method returns;
// and the code types: integer types whose name ends in "Code".
func (m *modIndex) declareTypes(p *program.Package) {
	decls := typeDecls(p)
	for tn := range decls {
		if b, ok := tn.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 && strings.HasSuffix(tn.Name(), "Code") {
			m.codeTypes[key(tn)] = true
		}
	}
	s := m.scope(p)
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !s.isErrorMethod(fd) {
				continue
			}
			tn, ptr := s.receiver(fd)
			decl, ok := decls[tn]
			if !ok {
				continue
			}
			at, ok := s.where(decl.spec.Name.Pos())
			if !ok {
				continue
			}
			m.types[key(tn)] = &Error{
				Kind: Type, Package: p.PkgPath, PkgName: p.Name, Name: tn.Name(),
				Message: s.errorFormat(fd, tn), Where: at, Doc: decl.doc, Pointer: ptr, Internal: p.Internal,
			}
		}
	}
}

// isErrorMethod reports func (T) Error() string, declared with a body.
func (s *scope) isErrorMethod(fd *ast.FuncDecl) bool {
	if fd.Recv == nil || fd.Name.Name != "Error" || fd.Body == nil {
		return false
	}
	fn, ok := s.info.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Signature()
	return sig.Params().Len() == 0 && sig.Results().Len() == 1 &&
		types.Identical(sig.Results().At(0).Type(), types.Typ[types.String])
}

// receiver is a method's receiver type and whether it is a pointer.
func (s *scope) receiver(fd *ast.FuncDecl) (*types.TypeName, bool) {
	fn, ok := s.info.Defs[fd.Name].(*types.Func)
	if !ok || fn.Signature().Recv() == nil {
		return nil, false
	}
	t := fn.Signature().Recv().Type()
	ptr := false
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t, ptr = p.Elem(), true
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj(), ptr
	}
	return nil, false
}

// typeFormat is an Error method's fmt.Sprintf: the format and, for each
// argument that is a field of the receiver, the field's name.
type typeFormat struct {
	format string
	fields []string
}

// errorFormat is what an Error method returns, as a format: the first
// fmt.Sprintf with a constant format, else the first constant or
// concatenation of constants and values ("http2: " + string(e) becomes
// "http2: %v"). "" when it returns neither. The Sprintf's arguments are
// kept in m.formats, so a literal of the type can be rendered.
func (s *scope) errorFormat(fd *ast.FuncDecl, tn *types.TypeName) string {
	var recv types.Object
	if names := fd.Recv.List[0].Names; len(names) == 1 {
		recv = s.info.Defs[names[0]]
	}
	var sprintf, constant string
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		ret, ok := n.(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			return true
		}
		if call, ok := ret.Results[0].(*ast.CallExpr); ok && s.calls(call, []string{"fmt"}, "Sprintf") && len(call.Args) > 0 {
			if f, ok := s.constString(call.Args[0]); ok && sprintf == "" {
				sprintf = f
				tf := typeFormat{format: f}
				for _, a := range call.Args[1:] {
					tf.fields = append(tf.fields, s.receiverField(a, recv))
				}
				s.m.formats[key(tn)] = tf
			}
			return true
		}
		if f, _, ok := s.concatFields(ret.Results[0], recv); ok && constant == "" {
			constant = f
		}
		return true
	})
	if sprintf != "" {
		return sprintf
	}
	return constant
}

// receiverField is the field name when a is recv.Field, else "".
func (s *scope) receiverField(a ast.Expr, recv types.Object) string {
	sel, ok := a.(*ast.SelectorExpr)
	if !ok || recv == nil {
		return ""
	}
	if x, ok := sel.X.(*ast.Ident); ok && s.info.Uses[x] == recv {
		return sel.Sel.Name
	}
	return ""
}

// valueSpecs calls fn with every package-level const or var spec of p
// (tok says which) whose names all have values.
func (m *modIndex) valueSpecs(p *program.Package, tok token.Token, fn func(gd *ast.GenDecl, vs *ast.ValueSpec)) {
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != tok {
				continue
			}
			for _, sp := range gd.Specs {
				if vs := sp.(*ast.ValueSpec); len(vs.Values) == len(vs.Names) {
					fn(gd, vs)
				}
			}
		}
	}
}

// declareCodes finds the constants of p's code types, with the values the
// type checker gives them.
func (m *modIndex) declareCodes(p *program.Package) {
	for _, name := range p.Types.Scope().Names() {
		c, ok := p.Types.Scope().Lookup(name).(*types.Const)
		if !ok || !m.codeTypes[namedKey(c.Type())] {
			continue
		}
		if v, exact := constantInt(c); exact {
			at, _ := m.prog.Where(c.Pos())
			m.codes[key(c)] = &Code{Name: name, Value: v, Package: p.PkgPath, PkgName: p.Name, At: at}
		}
	}
}

// declareSentinels finds p's package-level error variables.
func (m *modIndex) declareSentinels(p *program.Package) {
	s := m.scope(p)
	m.valueSpecs(p, token.VAR, func(gd *ast.GenDecl, vs *ast.ValueSpec) {
		doc := docText(vs.Doc, vs.Comment)
		if !gd.Lparen.IsValid() {
			doc = docText(vs.Doc, gd.Doc, vs.Comment)
		}
		for i, name := range vs.Names {
			obj, ok := s.info.Defs[name].(*types.Var)
			if !ok || name.Name == "_" {
				continue
			}
			e := s.sentinel(vs.Values[i])
			if e == nil {
				continue
			}
			at, ok := s.where(name.Pos())
			if !ok {
				continue
			}
			e.Kind, e.Package, e.PkgName, e.Name = Sentinel, p.PkgPath, p.Name, name.Name
			e.Where, e.Doc, e.Internal = at, doc, p.Internal
			m.sentinels[key(obj)] = e
		}
	})
}

// sentinel reads an error variable's value: errors.New, fmt.Errorf, or a
// literal or conversion of a known error type. nil for anything else.
func (s *scope) sentinel(v ast.Expr) *Error {
	if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
		v = u.X
	}
	switch v := v.(type) {
	case *ast.CallExpr:
		if msg, isErrorf, ok := s.newError(v); ok {
			e := &Error{Message: msg}
			if isErrorf {
				e.Wraps = s.wrapped(msg, v.Args[1:])
			}
			return e
		}
		if t := s.m.types[s.typeKey(v.Fun)]; t != nil && len(v.Args) == 1 {
			return s.literalError(t, v)
		}
	case *ast.CompositeLit:
		if t := s.m.types[s.typeKey(v.Type)]; t != nil && v.Type != nil {
			return s.literalError(t, v)
		}
	}
	return nil
}

// literalError reads a literal (or conversion) of error type t: its
// message is t's format applied to the literal's text, and a code
// constant or HTTP status among its fields is attached.
func (s *scope) literalError(t *Error, lit ast.Node) *Error {
	e := &Error{}
	text := ""
	rendered := ""
	ast.Inspect(lit, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			if msg, ok := s.render(n); ok {
				rendered = msg // the innermost literal that renders: outer types delegate to it
			}
			for _, el := range n.Elts {
				s.literalField(e, n, el)
			}
		case *ast.BasicLit:
			if str, ok := stringLit(n); ok && text == "" && strings.TrimSpace(str) != "" {
				text = str
			}
		}
		return true
	})
	e.Message = applyFormat(t.Message, text)
	if rendered != "" {
		e.Message = rendered
	}
	return e
}

// literalField attaches what one field of a literal says to e: the first
// code constant, and an HTTP status.
func (s *scope) literalField(e *Error, lit *ast.CompositeLit, el ast.Expr) {
	kv, ok := el.(*ast.KeyValueExpr)
	if !ok {
		return
	}
	field, ok := kv.Key.(*ast.Ident)
	if !ok {
		return
	}
	if c := s.constOf(kv.Value); c != nil && s.m.codes[key(c)] != nil && e.Code == nil {
		code := *s.m.codes[key(c)]
		if lit.Type != nil {
			if tk := s.typeKey(lit.Type); tk != "" {
				code.CarrierType = tk[strings.LastIndexByte(tk, '.')+1:]
			}
		}
		code.CarrierField = field.Name
		e.Code = &code
	}
	if n, ok := s.intValue(kv.Value); ok && n >= 100 && n <= 599 && isStatusField(field.Name) {
		e.HTTPStatus = n
	}
}

// render is the message a composite literal of an error type makes: the
// type's Sprintf format with each verb replaced by the value the literal
// gives the field it prints. ok only when every verb has a value that
// prints as the source states it: a number constant printed with %v
// whose type has a String or Error method prints that, not the number.
func (s *scope) render(lit *ast.CompositeLit) (string, bool) {
	if lit.Type == nil {
		return "", false
	}
	tf, ok := s.m.formats[s.typeKey(lit.Type)]
	if !ok {
		return "", false
	}
	values := s.fieldValues(lit)
	verbs := Verbs(tf.format)
	if len(verbs) != len(tf.fields) || len(verbs) == 0 {
		return "", false
	}
	var b strings.Builder
	last := 0
	for i, v := range verbs {
		val, ok := values[tf.fields[i]]
		if !ok || tf.fields[i] == "" || val.methods && v.Verb != 'd' {
			return "", false
		}
		text := val.text
		if v.Verb == 'q' {
			text = strconv.Quote(text)
		}
		b.WriteString(tf.format[last:v.Start])
		b.WriteString(text)
		last = v.End
	}
	b.WriteString(tf.format[last:])
	return strings.ReplaceAll(b.String(), "%%", "%"), true
}

// fieldValue is a literal's field as printed: a string literal, or an
// integer constant, which methods says may print otherwise.
type fieldValue struct {
	text    string
	methods bool // its type has a String or Error method
}

// fieldValues are the constant fields of a literal, by name.
func (s *scope) fieldValues(lit *ast.CompositeLit) map[string]fieldValue {
	values := map[string]fieldValue{}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		field, ok := kv.Key.(*ast.Ident)
		if !ok {
			continue
		}
		if str, ok := s.constString(kv.Value); ok {
			values[field.Name] = fieldValue{text: str}
		} else if n, ok := s.intValue(kv.Value); ok {
			values[field.Name] = fieldValue{text: strconv.Itoa(n), methods: printsItself(s.info.TypeOf(kv.Value))}
		}
	}
	return values
}

// printsItself reports a type fmt prints through its own method.
func printsItself(t types.Type) bool {
	for _, name := range []string{"String", "Error"} {
		if obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name); obj != nil {
			if _, ok := obj.(*types.Func); ok {
				return true
			}
		}
	}
	return false
}

func isStatusField(name string) bool {
	switch name {
	case "Code", "Status", "StatusCode", "HTTPStatus", "HTTPCode":
		return true
	}
	return false
}

// applyFormat is the message an error type's format gives for a literal's
// text: the format with its one verb replaced, the text alone when the
// format is not of that shape, the format when there is no text.
func applyFormat(format, text string) string {
	if text == "" {
		return format
	}
	if v := Verbs(format); len(v) == 1 && (v[0].Verb == 's' || v[0].Verb == 'v') {
		return format[:v[0].Start] + text + format[v[0].End:]
	}
	return text
}

// constantInt is an integer constant's value; exact is false for one
// that does not fit an int64 or is not an integer.
func constantInt(c *types.Const) (int, bool) {
	if c.Val().Kind() != constant.Int {
		return 0, false
	}
	n, exact := constant.Int64Val(c.Val())
	return int(n), exact
}
