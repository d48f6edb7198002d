package knowledge

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/errkb/errkb"
)

// settingIndex knows the module's struct fields that configuration sets:
// the fields a config parser assigns in a case of a switch on the key
// (nats-server's opts.go: case "reject_qos2_publish": o.MQTT.rejectQoS2Pub
// = mv.(bool)), and the fields copied from those (rejectQoS2Pub:
// opts.MQTT.rejectQoS2Pub).
type settingIndex struct {
	ix     *index
	keys   map[*types.Var]configKey
	copies map[*types.Var]*types.Var // a field, to the field it is copied from
	decls  map[token.Pos]*ast.Field  // by the position of a field's name
}

type configKey struct {
	key string
	at  errkb.Place
}

// keyRE is what a configuration key looks like: lower case, digits, _ and -.
var keyRE = regexp.MustCompile(`^[a-z][a-z0-9_\-]*[a-z0-9]$`)

func newSettingIndex(ix *index) *settingIndex {
	s := &settingIndex{ix: ix, keys: map[*types.Var]configKey{}, copies: map[*types.Var]*types.Var{}, decls: map[token.Pos]*ast.Field{}}
	for _, rel := range sortedFiles(ix) {
		fi := ix.files[rel]
		if fi.test {
			continue
		}
		info := fi.pkg.TypesInfo
		ast.Inspect(fi.ast, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.StructType:
				for _, f := range n.Fields.List {
					for _, name := range f.Names {
						s.decls[name.Pos()] = f
					}
				}
			case *ast.CaseClause:
				s.caseKeys(fi, n)
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i := range n.Lhs {
						s.copy(field(info, n.Lhs[i]), field(info, n.Rhs[i]))
					}
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok {
					if v, ok := info.Uses[id].(*types.Var); ok && v.IsField() {
						s.copy(v, field(info, n.Value))
					}
				}
			}
			return true
		})
	}
	return s
}

func (s *settingIndex) copy(to, from *types.Var) {
	if to != nil && from != nil && to != from {
		if _, seen := s.copies[to]; !seen {
			s.copies[to] = from
		}
	}
}

// caseKeys notes the fields a case on configuration keys assigns.
func (s *settingIndex) caseKeys(fi *file, cc *ast.CaseClause) {
	var keys []string
	for _, v := range cc.List {
		lit, ok := v.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return
		}
		k, err := strconv.Unquote(lit.Value)
		if err != nil || !keyRE.MatchString(k) || !strings.ContainsAny(k, "_-") && len(cc.List) == 1 && len(k) < 4 {
			return
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return
	}
	for _, st := range cc.Body {
		as, ok := st.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 {
			continue
		}
		v := field(fi.pkg.TypesInfo, as.Lhs[0])
		if v == nil {
			continue
		}
		if _, seen := s.keys[v]; seen {
			continue
		}
		if at, ok := s.ix.where(as.Pos()); ok {
			s.keys[v] = configKey{key: keys[0], at: at}
		}
	}
}

// field is the struct field a selector expression selects, or nil.
func field(info *types.Info, e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if s, ok := info.Selections[sel]; ok && s.Kind() == types.FieldVal {
		if v, ok := s.Obj().(*types.Var); ok {
			return v
		}
	}
	return nil
}

// read is the settings the expressions read: fields that configuration
// sets, and fields of a type named for options or configuration.
func (s *settingIndex) read(fi *file, exprs []ast.Expr) []errkb.Setting {
	out := []errkb.Setting{}
	seen := map[*types.Var]bool{}
	info := fi.pkg.TypesInfo
	for _, e := range exprs {
		ast.Inspect(e, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			v := field(info, sel)
			if v == nil || seen[v] {
				return true
			}
			seen[v] = true
			if st, ok := s.setting(v, info.Selections[sel].Recv()); ok {
				out = append(out, st)
			}
			return true
		})
	}
	return out
}

// setting describes v when configuration sets it or its type is options.
func (s *settingIndex) setting(v *types.Var, recv types.Type) (errkb.Setting, bool) {
	key, hasKey := s.keyOf(v)
	if !hasKey && (!isOptions(recv) || isStruct(v.Type())) {
		return errkb.Setting{}, false
	}
	at, ok := s.ix.where(v.Pos())
	if !ok {
		return errkb.Setting{}, false
	}
	st := errkb.Setting{Field: v.Name(), Type: types.TypeString(v.Type(), types.RelativeTo(v.Pkg())),
		FilePath: at.FilePath, LineNumber: at.LineNumber, GithubURL: at.GithubURL}
	if f := s.decls[v.Pos()]; f != nil {
		st.Doc = docText(f.Doc, f.Comment)
	}
	if hasKey {
		st.ConfigKey = key.key
		st.ConfigAt = &key.at
	}
	return st, true
}

// keyOf is the configuration key that sets v, directly or through the
// fields it is copied from.
func (s *settingIndex) keyOf(v *types.Var) (configKey, bool) {
	for range 4 {
		if k, ok := s.keys[v]; ok {
			return k, true
		}
		if v = s.copies[v]; v == nil {
			break
		}
	}
	return configKey{}, false
}

// isOptions reports a struct type named for options or configuration.
func isOptions(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	name := strings.ToLower(n.Obj().Name())
	return slices.ContainsFunc([]string{"options", "opts", "config", "settings"}, func(s string) bool { return strings.HasSuffix(name, s) })
}

// docText is a comment group's text, or "".
func docText(groups ...*ast.CommentGroup) string {
	for _, g := range groups {
		if g != nil {
			if t := strings.TrimSpace(g.Text()); t != "" {
				return t
			}
		}
	}
	return ""
}

// sortedFiles are the index's files in path order, so results do not
// depend on map order.
func sortedFiles(ix *index) []string {
	out := make([]string, 0, len(ix.files))
	for rel := range ix.files {
		out = append(out, rel)
	}
	slices.Sort(out)
	return out
}

// isStruct reports a struct or a pointer to one: a group of settings,
// not one.
func isStruct(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	_, ok := t.Underlying().(*types.Struct)
	return ok
}
