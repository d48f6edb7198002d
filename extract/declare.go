package extract

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// declareTypes finds the error types of p: named types with an
// Error() string method, with the message or format that method returns.
func (m *modIndex) declareTypes(p *pkg) {
	specs := map[string]*ast.TypeSpec{}
	docs := map[string]string{}
	files := map[string]*file{}
	for _, f := range p.files {
		for _, d := range f.ast.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, sp := range gd.Specs {
				ts := sp.(*ast.TypeSpec)
				specs[ts.Name.Name] = ts
				files[ts.Name.Name] = f
				if gd.Lparen.IsValid() {
					docs[ts.Name.Name] = docText(ts.Doc, ts.Comment)
				} else {
					docs[ts.Name.Name] = docText(ts.Doc, gd.Doc, ts.Comment)
				}
				if id, ok := ts.Type.(*ast.Ident); ok && strings.HasSuffix(ts.Name.Name, "Code") && isInteger(id.Name) {
					m.codeTypes[p.path+"."+ts.Name.Name] = true
				}
			}
		}
	}
	for _, f := range p.files {
		for _, d := range f.ast.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !isErrorMethod(fd) {
				continue
			}
			recv, ptr := receiver(fd)
			ts, ok := specs[recv]
			if !ok {
				continue
			}
			tf := files[recv]
			m.types[p.path+"."+recv] = &Error{
				Kind: Type, Package: p.path, PkgName: p.name, Name: recv,
				Message: m.scope(p, f).errorFormat(fd, &m.formats),
				File:    tf.rel, Line: tf.line(ts.Name.Pos()), Doc: docs[recv], Pointer: ptr,
			}
		}
	}
}

func isInteger(name string) bool {
	switch name {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return true
	}
	return false
}

// isErrorMethod reports func (T) Error() string.
func isErrorMethod(fd *ast.FuncDecl) bool {
	if fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Name.Name != "Error" || fd.Body == nil {
		return false
	}
	t := fd.Type
	if t.Params.NumFields() != 0 || t.Results.NumFields() != 1 {
		return false
	}
	id, ok := t.Results.List[0].Type.(*ast.Ident)
	return ok && id.Name == "string"
}

// receiver names the receiver's type and whether it is a pointer.
func receiver(fd *ast.FuncDecl) (string, bool) {
	t := fd.Recv.List[0].Type
	ptr := false
	if st, ok := t.(*ast.StarExpr); ok {
		t, ptr = st.X, true
	}
	switch ix := t.(type) { // a generic type
	case *ast.IndexExpr:
		t = ix.X
	case *ast.IndexListExpr:
		t = ix.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name, ptr
	}
	return "", false
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
// kept in formats, so a literal of the type can be rendered.
func (s *scope) errorFormat(fd *ast.FuncDecl, formats *map[string]typeFormat) string {
	body := fd.Body
	recvName := ""
	if names := fd.Recv.List[0].Names; len(names) == 1 {
		recvName = names[0].Name
	}
	typeName, _ := receiver(fd)
	var sprintf, constant string
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		ret, ok := n.(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			return true
		}
		if call, ok := ret.Results[0].(*ast.CallExpr); ok && s.isFunc(call, []string{"fmt"}, "Sprintf") && len(call.Args) > 0 {
			if f, ok := stringLit(call.Args[0]); ok && sprintf == "" {
				sprintf = f
				tf := typeFormat{format: f}
				for _, a := range call.Args[1:] {
					field := ""
					if sel, ok := a.(*ast.SelectorExpr); ok {
						if x, ok := sel.X.(*ast.Ident); ok && x.Name == recvName && recvName != "" {
							field = sel.Sel.Name
						}
					}
					tf.fields = append(tf.fields, field)
				}
				(*formats)[s.p.path+"."+typeName] = tf
			}
			return true
		}
		if f, ok := concatFormat(ret.Results[0]); ok && constant == "" {
			constant = f
		}
		return true
	})
	if sprintf != "" {
		return sprintf
	}
	return constant
}

// concatFormat turns "a" + x + "b" into "a%vb"; ok only when some part is
// a string constant.
func concatFormat(e ast.Expr) (string, bool) {
	var parts []ast.Expr
	var flatten func(ast.Expr)
	flatten = func(e ast.Expr) {
		if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.ADD {
			flatten(b.X)
			flatten(b.Y)
			return
		}
		parts = append(parts, e)
	}
	flatten(e)
	var b strings.Builder
	lit := false
	for _, p := range parts {
		if s, ok := stringLit(p); ok {
			b.WriteString(strings.ReplaceAll(s, "%", "%%"))
			lit = true
		} else {
			b.WriteString("%v")
		}
	}
	return b.String(), lit
}

// valueSpecs calls fn with every package-level const or var spec of p
// (tok says which) whose names all have values.
func (m *modIndex) valueSpecs(p *pkg, tok token.Token, fn func(s *scope, gd *ast.GenDecl, vs *ast.ValueSpec)) {
	for _, f := range p.files {
		s := m.scope(p, f)
		for _, d := range f.ast.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != tok {
				continue
			}
			for _, sp := range gd.Specs {
				if vs := sp.(*ast.ValueSpec); len(vs.Values) == len(vs.Names) {
					fn(s, gd, vs)
				}
			}
		}
	}
}

// declareCodes finds the constants of p's code types.
func (m *modIndex) declareCodes(p *pkg) {
	m.valueSpecs(p, token.CONST, func(s *scope, _ *ast.GenDecl, vs *ast.ValueSpec) {
		if vs.Type == nil {
			return
		}
		tp, tn, ok := s.resolve(vs.Type)
		if !ok || !m.codeTypes[tp+"."+tn] {
			return
		}
		for i, name := range vs.Names {
			if v, ok := intLit(vs.Values[i]); ok {
				m.codes[p.path+"."+name.Name] = &Code{Name: name.Name, Value: v, Package: p.path, PkgName: p.name}
			}
		}
	})
}

// declareSentinels finds p's package-level error variables.
func (m *modIndex) declareSentinels(p *pkg) {
	m.valueSpecs(p, token.VAR, func(s *scope, gd *ast.GenDecl, vs *ast.ValueSpec) {
		doc := docText(vs.Doc, vs.Comment)
		if !gd.Lparen.IsValid() {
			doc = docText(vs.Doc, gd.Doc, vs.Comment)
		}
		for i, name := range vs.Names {
			if name.Name == "_" {
				continue
			}
			e := s.sentinel(vs.Values[i])
			if e == nil {
				continue
			}
			e.Kind, e.Package, e.PkgName, e.Name = Sentinel, p.path, p.name, name.Name
			e.File, e.Line, e.Doc = s.f.rel, s.f.line(name.Pos()), doc
			if _, dup := m.sentinels[e.Key()]; dup {
				continue // the same name in files for other platforms: the first file wins
			}
			m.sentinels[e.Key()] = e
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
		if tp, tn, ok := s.resolve(v.Fun); ok && len(v.Args) == 1 {
			if t := s.m.types[tp+"."+tn]; t != nil {
				return s.literalError(t, v)
			}
		}
	case *ast.CompositeLit:
		if tp, tn, ok := s.resolve(v.Type); ok {
			if t := s.m.types[tp+"."+tn]; t != nil {
				return s.literalError(t, v)
			}
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
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				key, _ := kv.Key.(*ast.Ident)
				if key == nil {
					continue
				}
				if cp, cn, ok := s.resolve(kv.Value); ok && s.m.codes[cp+"."+cn] != nil && e.Code == nil {
					c := *s.m.codes[cp+"."+cn]
					if _, tn, ok := s.resolve(n.Type); ok {
						c.CarrierType = tn
					}
					c.CarrierField = key.Name
					e.Code = &c
				}
				if n, ok := intLit(kv.Value); ok && n >= 100 && n <= 599 && isStatusField(key.Name) {
					e.HTTPStatus = n
				}
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

// render is the message a composite literal of an error type makes: the
// type's Sprintf format with each verb replaced by the value the literal
// gives the field it prints. ok only when every verb has a value.
func (s *scope) render(lit *ast.CompositeLit) (string, bool) {
	tp, tn, ok := s.resolve(lit.Type)
	if !ok {
		return "", false
	}
	tf, ok := s.m.formats[tp+"."+tn]
	if !ok {
		return "", false
	}
	values := map[string]string{}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key, ok := kv.Key.(*ast.Ident)
		if !ok {
			continue
		}
		if str, ok := stringLit(kv.Value); ok {
			values[key.Name] = str
		} else if n, ok := intLit(kv.Value); ok {
			values[key.Name] = strconv.Itoa(n)
		} else if cp, cn, ok := s.resolve(kv.Value); ok && s.m.codes[cp+"."+cn] != nil {
			values[key.Name] = strconv.Itoa(s.m.codes[cp+"."+cn].Value)
		}
	}
	verbs := Verbs(tf.format)
	if len(verbs) != len(tf.fields) || len(verbs) == 0 {
		return "", false
	}
	var b strings.Builder
	last := 0
	for i, v := range verbs {
		val, ok := values[tf.fields[i]]
		if !ok || tf.fields[i] == "" {
			return "", false
		}
		if v.Verb == 'q' {
			val = strconv.Quote(val)
		}
		b.WriteString(tf.format[last:v.Start])
		b.WriteString(val)
		last = v.End
	}
	b.WriteString(tf.format[last:])
	return strings.ReplaceAll(b.String(), "%%", "%"), true
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
