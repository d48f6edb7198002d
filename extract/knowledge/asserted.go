package knowledge

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract"
)

// asserted are the module's tests that assert e: a comparison with its
// name (errors.Is, require.ErrorIs, ==, an assertion helper given it and
// the error), or with its message's text where that text belongs to no
// other error of the module. An assertion in a helper counts for the
// tests that call the helper.
func (ix *index) asserted(e *extract.Error) []errkb.Test {
	var out []errkb.Test
	seen := map[string]bool{}
	add := func(fi *file, path []ast.Node, assertion ast.Node) {
		at, ok := ix.where(assertion.Pos())
		if !ok || refutes(fi.pkg.TypesInfo, path, assertion) {
			return
		}
		text := ix.text(fi, assertion)
		if len(text) > 200 {
			text = text[:200] + "…"
		}
		for _, name := range ix.testsOf(fi, path) {
			if !seen[name] { // a test once, at its first assertion
				seen[name] = true
				out = append(out, errkb.Test{Name: name, Package: fi.pkg.PkgPath, Assertion: text,
					FilePath: at.FilePath, LineNumber: at.LineNumber, GithubURL: at.GithubURL})
			}
		}
	}
	for _, k := range targets(e, ix.o) {
		for _, r := range ix.refs[k] {
			if !r.file.test {
				continue
			}
			if a := assertion(r.file.pkg.TypesInfo, r.path, outer(r.path)); a != nil {
				add(r.file, r.path, a)
			}
		}
	}
	for _, h := range ix.messageHits()[e.Key()] {
		add(h.file, h.path, h.assertion)
	}
	slices.SortStableFunc(out, func(a, b errkb.Test) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// assertion is the comparison or assertion call the expression at
// path[i] is a side of, or nil: ErrX, ErrX.Error(), NewXError(), &x.
func assertion(info *types.Info, path []ast.Node, i int) ast.Node {
	for i > 0 {
		cur, parent := path[i], path[i-1]
		switch p := parent.(type) {
		case *ast.SelectorExpr:
			if p.X == cur && p.Sel.Name == "Error" && i > 1 {
				if call, ok := path[i-2].(*ast.CallExpr); ok && call.Fun == p {
					i -= 2
					continue
				}
			}
			return nil
		case *ast.CallExpr:
			if p.Fun == cur || len(p.Args) == 1 && p.Args[0] == cur && isConversion(info, p) {
				i--
				continue
			}
			if isArg(p, cur) && !prints(info, p) && hasErrorArg(info, p, cur) {
				return p
			}
			return nil
		case *ast.UnaryExpr:
			if p.Op == token.AND {
				i--
				continue
			}
			return nil
		case *ast.BinaryExpr:
			if p.Op == token.EQL || p.Op == token.NEQ {
				return p
			}
			return nil
		case *ast.CaseClause:
			return p
		default:
			return nil
		}
	}
	return nil
}

// prints reports a call that reports or prints rather than asserts:
// a method of testing's types, fmt, log.
func prints(info *types.Info, call *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "testing", "fmt", "log", "log/slog":
		return true
	}
	return false
}

// testsOf names the tests an assertion at path belongs to: the test
// function it is in, or the tests that call the helper it is in.
func (ix *index) testsOf(fi *file, path []ast.Node) []string {
	_, decl := enclosingFunc(path)
	if decl == nil {
		return nil
	}
	if isTest(decl) {
		return []string{decl.Name.Name}
	}
	obj := fi.pkg.TypesInfo.Defs[decl.Name]
	if obj == nil {
		return nil
	}
	return ix.callersInTests()[obj]
}

// isTest reports a test function: TestXxx or FuzzXxx, at package level.
func isTest(fd *ast.FuncDecl) bool {
	return fd.Recv == nil && (strings.HasPrefix(fd.Name.Name, "Test") || strings.HasPrefix(fd.Name.Name, "Fuzz")) && fd.Name.Name != "TestMain"
}

// callersInTests maps each function of the test files to the tests that
// name it, built on first use.
func (ix *index) callersInTests() map[types.Object][]string {
	if ix.testCallers != nil {
		return ix.testCallers
	}
	ix.testCallers = map[types.Object][]string{}
	for _, rel := range sortedFiles(ix) {
		fi := ix.files[rel]
		if !fi.test {
			continue
		}
		for _, d := range fi.ast.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !isTest(fd) {
				continue
			}
			named := map[types.Object]bool{}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if f, ok := fi.pkg.TypesInfo.Uses[id].(*types.Func); ok && !named[f] {
						named[f] = true
						ix.testCallers[f] = append(ix.testCallers[f], fd.Name.Name)
					}
				}
				return true
			})
		}
	}
	return ix.testCallers
}

// hit is an assertion in a test of an error's message text.
type hit struct {
	file      *file
	path      []ast.Node
	assertion ast.Node
}

// minAssertedText is the shortest message text an assertion must quote
// to be taken for one error's: shorter texts ("not found") are too
// common to tell errors apart.
const minAssertedText = 12

// messageHits are the assertions of the test files that compare an error
// with a string literal that is part of exactly one error's message, by
// that error's key. Built on first use.
func (ix *index) messageHits() map[string][]hit {
	if ix.hits != nil {
		return ix.hits
	}
	ix.hits = map[string][]hit{}
	type msg struct {
		key    string
		chunks []string
	}
	var msgs []msg
	for i := range ix.errs {
		e := &ix.errs[i]
		msgs = append(msgs, msg{e.Key(), chunks(e.Message)})
	}
	for _, rel := range sortedFiles(ix) {
		fi := ix.files[rel]
		if !fi.test {
			continue
		}
		var stack []ast.Node
		ast.Inspect(fi.ast, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			lit, ok := n.(*ast.BasicLit)
			if ok && lit.Kind == token.INT {
				ix.codeHit(fi, stack)
				return true
			}
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || len(strings.TrimSpace(s)) < minAssertedText {
				return true
			}
			a := textAssertion(fi.pkg.TypesInfo, stack)
			if a == nil {
				return true
			}
			var match string
			for _, m := range msgs {
				if slices.ContainsFunc(m.chunks, func(c string) bool { return strings.Contains(c, s) }) {
					if match != "" && match != m.key {
						return true // the text of two errors: it tells neither apart
					}
					match = m.key
				}
			}
			if match != "" {
				ix.hits[match] = append(ix.hits[match], hit{file: fi, path: slices.Clone(stack), assertion: a})
			}
			return true
		})
	}
	return ix.hits
}

// textAssertion is the comparison or assertion call a string literal at
// the end of path is a side of, against an error or its Error() text.
func textAssertion(info *types.Info, path []ast.Node) ast.Node {
	i := len(path) - 1
	if i < 1 {
		return nil
	}
	cur := path[i]
	switch p := path[i-1].(type) {
	case *ast.BinaryExpr:
		other := p.X
		if other == cur {
			other = p.Y
		}
		if (p.Op == token.EQL || p.Op == token.NEQ) && isErrorValue(info, other) {
			return p
		}
	case *ast.CallExpr:
		if isArg(p, cur) && !prints(info, p) && (hasErrorArg(info, p, cur) || assertsText(info, p)) {
			return p
		}
	}
	return nil
}

// assertNameRE is the name of a call that asserts text: strings.Contains,
// require_Contains, assert.Equal, expectResult, checkErr...
var assertNameRE = regexp.MustCompile(`(?i)^(require|assert|expect|check)|Contains|Equal|Match|HasPrefix|HasSuffix`)

// assertsText reports a call, by its name, that checks text: a test
// that looks for an error's words in what the server wrote back
// (strings.Contains(string(buf), "-ERR 'Maximum Payload Violation'")).
func assertsText(info *types.Info, call *ast.CallExpr) bool {
	var name string
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		name = f.Name
	case *ast.SelectorExpr:
		name = f.Sel.Name
	}
	return name != "" && assertNameRE.MatchString(name)
}

// placeholderRE is an errors.json placeholder: {stream}.
var placeholderRE = regexp.MustCompile(`\{[^{}]*\}`)

// chunks are a message's runs of literal text, between its verbs and
// placeholders.
func chunks(format string) []string {
	var out []string
	last := 0
	add := func(s string) {
		for _, c := range placeholderRE.Split(strings.ReplaceAll(s, "%%", "%"), -1) {
			if c = strings.TrimSpace(c); c != "" {
				out = append(out, c)
			}
		}
	}
	for _, v := range extract.Verbs(format) {
		add(format[last:v.Start])
		last = v.End
	}
	add(format[last:])
	return out
}

// isConversion reports a conversion T(x).
func isConversion(info *types.Info, call *ast.CallExpr) bool {
	tv, ok := info.Types[call.Fun]
	return ok && tv.IsType()
}

// codeHit notes an integer literal a test compares with an error's code
// field (resp.Error.ErrCode != 10116) when exactly one error of the
// module carries that code.
func (ix *index) codeHit(fi *file, path []ast.Node) {
	i := len(path) - 1
	lit := path[i].(*ast.BasicLit)
	n, err := strconv.Atoi(lit.Value)
	if err != nil || i < 1 {
		return
	}
	info := fi.pkg.TypesInfo
	var a ast.Node
	switch p := path[i-1].(type) {
	case *ast.BinaryExpr:
		other := p.X
		if other == ast.Expr(lit) {
			other = p.Y
		}
		if (p.Op == token.EQL || p.Op == token.NEQ) && isErrorField(info, other) {
			a = p
		}
	case *ast.CallExpr:
		if isArg(p, lit) && !prints(info, p) && slices.ContainsFunc(p.Args, func(e ast.Expr) bool { return isErrorField(info, e) }) {
			a = p
		}
	}
	if a == nil {
		return
	}
	match := ""
	for k := range ix.errs {
		if c := ix.errs[k].Code; c != nil && c.Value == n {
			if match != "" {
				return // a code two errors carry tells neither apart
			}
			match = ix.errs[k].Key()
		}
	}
	if match != "" {
		ix.hits[match] = append(ix.hits[match], hit{file: fi, path: slices.Clone(path), assertion: a})
	}
}

// refutes reports an assertion that the error does not happen: a call
// named Not… (require_NotEqual, assert.NotErrorIs, require_NoError), or
// a check in an if's condition that makes the condition true when the
// error matches, where the if's body fails the test (t.Fatalf).
func refutes(info *types.Info, path []ast.Node, a ast.Node) bool {
	if call, ok := a.(*ast.CallExpr); ok {
		var name string
		switch f := ast.Unparen(call.Fun).(type) {
		case *ast.Ident:
			name = f.Name
		case *ast.SelectorExpr:
			name = f.Sel.Name
		}
		if strings.Contains(name, "Not") || strings.Contains(name, "NoError") {
			return true
		}
	}
	matches := true // the check is true when the error matches
	if be, ok := a.(*ast.BinaryExpr); ok && be.Op == token.NEQ {
		matches = false
	}
	i := slices.Index(path, ast.Node(a))
	if i < 0 {
		return false
	}
	for j := i - 1; j >= 0; j-- {
		switch n := path[j].(type) {
		case *ast.UnaryExpr:
			if n.Op == token.NOT {
				matches = !matches
			}
		case *ast.ParenExpr:
		case *ast.BinaryExpr:
			if n.Op != token.LAND && n.Op != token.LOR {
				return false
			}
		case *ast.IfStmt:
			return path[j+1] == ast.Node(n.Cond) && matches && fails(info, n.Body)
		default:
			return false
		}
	}
	return false
}

// fails reports a block that fails the test: it calls Fatal, Fatalf,
// Error, Errorf, Fail or FailNow of testing's types.
func fails(info *types.Info, body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if fn, ok := typeutil.Callee(info, call).(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "testing" &&
			slices.Contains([]string{"Fatal", "Fatalf", "Error", "Errorf", "Fail", "FailNow"}, fn.Name()) {
			found = true
		}
		return !found
	})
	return found
}
