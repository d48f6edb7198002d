// Command realrecords makes error records from real Go sources on this
// machine, for the real-record relevance suite (testdata/realrelevance).
// Every field holds a fact read from the source: the error variable's name,
// its message as written, its doc comment, the declaration as the snippet,
// the file and line, and a link to that line at the released version.
// Nothing is written that the source does not say.
//
//	go mod download github.com/nats-io/nats-server/v2@v2.10.22 github.com/nats-io/nats.go@v1.37.0
//	go run ./scripts/realrecords -out testdata/realrelevance/dataset
//
// Sources: sentinel errors (var ErrX = errors.New(...) or fmt.Errorf(...))
// of a set of GOROOT packages; syscall's Linux errno table; nats.go's and
// its jetstream package's errors; nats-server's errors.go and its
// JetStream API errors (server/errors.json).
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
)

type record struct {
	ID             string   `json:"id"`
	Repo           string   `json:"repo"`
	Slug           string   `json:"slug"`
	ErrorCode      string   `json:"errorCode"`
	ErrorMessage   string   `json:"errorMessage"`
	MessagePattern string   `json:"messagePattern,omitempty"`
	ErrorType      string   `json:"errorType"`
	ErrorClass     string   `json:"errorClass,omitempty"`
	HTTPStatus     *int     `json:"httpStatus,omitempty"`
	Severity       string   `json:"severity"`
	FilePath       string   `json:"filePath"`
	LineNumber     int      `json:"lineNumber"`
	SourceCode     string   `json:"sourceCode"`
	SourceStart    int      `json:"sourceCodeStart"`
	SourceEnd      int      `json:"sourceCodeEnd"`
	GithubURL      string   `json:"githubUrl"`
	Documentation  string   `json:"documentation,omitempty"`
	TypeGuard      string   `json:"typeGuard,omitempty"`
	Tags           []string `json:"tags"`
	SchemaVersion  int      `json:"schemaVersion"`
	NumericCode    *int     `json:"numericCode,omitempty"`
	Wraps          []string `json:"wraps,omitempty"`
	WrappedBy      []string `json:"wrappedBy,omitempty"`
	GoPackage      string   `json:"goPackage"`

	wrapsVar string // the package variable a fmt.Errorf wraps with %w
}

type project struct {
	repo, module, version, dir, license, spdx string
	recs                                      []*record
}

func main() {
	out := flag.String("out", "testdata/realrelevance/dataset", "dataset folder to write")
	flag.Parse()
	goroot := runtime.GOROOT()
	goVersion := runtime.Version()
	mod := os.Getenv("GOMODCACHE")
	if mod == "" {
		mod = filepath.Join(os.Getenv("HOME"), "go", "pkg", "mod")
	}
	std := &project{repo: "golang/go", module: "std", version: goVersion, dir: goroot, license: "LICENSE", spdx: "BSD-3-Clause"}
	for _, pkg := range stdPackages {
		std.sentinels(filepath.Join("src", pkg), pkg)
	}
	std.errnos()
	client := &project{repo: "nats-io/nats.go", module: "github.com/nats-io/nats.go", version: "v1.37.0", license: "LICENSE", spdx: "Apache-2.0"}
	client.dir = filepath.Join(mod, "github.com/nats-io/nats.go@"+client.version)
	client.sentinels(".", "github.com/nats-io/nats.go")
	client.sentinels("jetstream", "github.com/nats-io/nats.go/jetstream")
	server := &project{repo: "nats-io/nats-server", module: "github.com/nats-io/nats-server/v2", version: "v2.10.22", license: "LICENSE", spdx: "Apache-2.0"}
	server.dir = filepath.Join(mod, "github.com/nats-io/nats-server/v2@"+server.version)
	server.sentinels("server", "github.com/nats-io/nats-server/v2/server")
	server.apiErrors()
	for _, p := range []*project{std, client, server} {
		p.link()
		if err := p.write(*out); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d records\n", p.repo, len(p.recs))
	}
}

// stdPackages are GOROOT packages whose exported error variables become records.
var stdPackages = []string{
	"archive/tar", "archive/zip", "bufio", "bytes", "compress/gzip", "compress/zlib", "context",
	"crypto/rsa", "crypto/x509", "database/sql", "database/sql/driver", "encoding/csv", "errors",
	"go/build", "image", "io", "io/fs", "mime/multipart", "net", "net/http", "net/http/httputil",
	"os", "os/exec", "path/filepath", "strconv", "strings", "text/template", "time",
}

// sentinels reads the exported error variables of the package in dir.
func (p *project) sentinels(dir, importPath string) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, filepath.Join(p.dir, dir), func(fi os.FileInfo) bool {
		n := fi.Name()
		return !strings.HasSuffix(n, "_test.go") && (!strings.Contains(n, "_") || strings.HasSuffix(n, "_linux.go") || strings.HasSuffix(n, "_unix.go") || strings.HasSuffix(n, "_posix.go"))
	}, parser.ParseComments)
	if err != nil {
		log.Fatalf("parse %s: %v", dir, err)
	}
	var names []string
	for name := range pkgs {
		if !strings.HasSuffix(name, "_test") && name != "main" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		files := pkgs[name].Files
		var paths []string
		for path := range files {
			paths = append(paths, path)
		}
		sort.Strings(paths)
		for _, path := range paths {
			src, _ := os.ReadFile(path)
			for _, d := range files[path].Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR {
					continue
				}
				for _, s := range g.Specs {
					vs := s.(*ast.ValueSpec)
					if len(vs.Names) != 1 || len(vs.Values) != 1 || !vs.Names[0].IsExported() {
						continue
					}
					msg, apiCode, status, wraps := errorValue(vs.Values[0])
					if msg == "" {
						continue
					}
					doc := vs.Doc
					if doc == nil && len(g.Specs) == 1 {
						doc = g.Doc
					}
					p.addSentinel(fset, src, path, name, importPath, vs, doc, msg, apiCode, status).wrapsVar = wraps
				}
			}
		}
	}
}

// errorValue reads the message of errors.New("..."), fmt.Errorf("...", ...)
// and nats.go's &jsError{...}; the jsError's Error method prefixes "nats: ".
func errorValue(e ast.Expr) (msg, apiCode string, status int, wraps string) {
	switch v := e.(type) {
	case *ast.CallExpr:
		sel, ok := v.Fun.(*ast.SelectorExpr)
		if !ok || len(v.Args) == 0 {
			return "", "", 0, ""
		}
		x, _ := sel.X.(*ast.Ident)
		if x == nil || !(x.Name == "errors" && sel.Sel.Name == "New" || x.Name == "fmt" && sel.Sel.Name == "Errorf") {
			return "", "", 0, ""
		}
		msg = stringLit(v.Args[0])
		if strings.Contains(msg, "%w") && len(v.Args) == 2 {
			if id, ok := v.Args[1].(*ast.Ident); ok {
				wraps = id.Name
			}
		}
		return msg, "", 0, wraps
	case *ast.UnaryExpr:
		cl, ok := v.X.(*ast.CompositeLit)
		if !ok {
			return "", "", 0, ""
		}
		if id, ok := cl.Type.(*ast.Ident); !ok || id.Name != "jsError" {
			return "", "", 0, ""
		}
		for _, el := range cl.Elts {
			kv := el.(*ast.KeyValueExpr)
			switch kv.Key.(*ast.Ident).Name {
			case "message":
				msg = stringLit(kv.Value)
			case "apiErr":
				api := kv.Value.(*ast.UnaryExpr).X.(*ast.CompositeLit)
				for _, ae := range api.Elts {
					akv := ae.(*ast.KeyValueExpr)
					switch akv.Key.(*ast.Ident).Name {
					case "Description":
						msg = stringLit(akv.Value)
					case "ErrorCode":
						if id, ok := akv.Value.(*ast.Ident); ok {
							apiCode = id.Name
						}
					case "Code":
						if l, ok := akv.Value.(*ast.BasicLit); ok {
							status, _ = strconv.Atoi(l.Value)
						}
					}
				}
			}
		}
		if msg != "" {
			msg = "nats: " + msg
		}
	}
	return msg, apiCode, status, ""
}

func stringLit(e ast.Expr) string {
	l, ok := e.(*ast.BasicLit)
	if !ok || l.Kind != token.STRING {
		return ""
	}
	s, err := strconv.Unquote(l.Value)
	if err != nil {
		return ""
	}
	return s
}

func (p *project) addSentinel(fset *token.FileSet, src []byte, path, pkgName, importPath string, vs *ast.ValueSpec, doc *ast.CommentGroup, msg, apiCode string, status int) *record {
	name := vs.Names[0].Name
	start, end := vs.Pos(), vs.End()
	if doc != nil {
		start = doc.Pos()
	}
	rel, _ := filepath.Rel(p.dir, path)
	rel = filepath.ToSlash(rel)
	line := fset.Position(vs.Names[0].Pos()).Line
	r := &record{
		Repo:         p.repo,
		ErrorCode:    name,
		ErrorMessage: msg,
		ErrorType:    "sentinel",
		Severity:     "error",
		FilePath:     rel,
		LineNumber:   line,
		SourceCode:   string(src[fset.Position(start).Offset:fset.Position(end).Offset]),
		SourceStart:  fset.Position(start).Line,
		SourceEnd:    fset.Position(end).Line,
		TypeGuard:    fmt.Sprintf("if errors.Is(err, %s.%s) {\n\t// ...\n}", pkgName, name),
		GoPackage:    importPath,
		Tags:         []string{pkgName},
	}
	if strings.Contains(msg, "%") {
		r.MessagePattern = msg
	}
	if doc != nil {
		r.Documentation = strings.TrimSpace(doc.Text())
	}
	if apiCode != "" {
		r.ErrorType = "jetstream_api_error"
		r.Documentation = strings.TrimSpace(r.Documentation + "\n\nThe server reports this error with `ErrorCode` " + apiCode + ".")
	}
	if status > 0 {
		r.HTTPStatus = &status
	}
	r.Slug = slugOf(strings.ReplaceAll(importPath, "github.com/nats-io/", "") + "-" + name)
	p.add(r)
	return r
}

// link fills wraps and wrappedBy from the variables fmt.Errorf wraps with
// %w, within one package.
func (p *project) link() {
	byVar := map[string]*record{}
	for _, r := range p.recs {
		byVar[r.GoPackage+"."+r.ErrorCode] = r
	}
	for _, r := range p.recs {
		if in := byVar[r.GoPackage+"."+r.wrapsVar]; r.wrapsVar != "" && in != nil {
			r.Wraps = append(r.Wraps, in.ID)
			in.WrappedBy = append(in.WrappedBy, r.ID)
		}
	}
}

func (p *project) add(r *record) {
	r.SchemaVersion = 2
	sum := sha256.Sum256([]byte(r.Repo + "/" + r.Slug))
	r.ID = hex.EncodeToString(sum[:8])
	r.GithubURL = fmt.Sprintf("https://github.com/%s/blob/%s/%s#L%d-L%d", p.repo, p.version, r.FilePath, r.SourceStart, r.SourceEnd)
	p.recs = append(p.recs, r)
}

var slugRE = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func slugOf(s string) string {
	return strings.Trim(slugRE.ReplaceAllString(strings.ReplaceAll(s, "/", "-"), "-"), "-")
}

// errnos reads syscall's Linux errno constants and their messages.
func (p *project) errnos() {
	rel := "src/syscall/zerrors_linux_amd64.go"
	src, err := os.ReadFile(filepath.Join(p.dir, rel))
	if err != nil {
		log.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	constRE := regexp.MustCompile(`^\t(E[A-Z0-9]+)\s+= Errno\((0x[0-9a-f]+)\)`)
	msgRE := regexp.MustCompile(`^\t(\d+):\s+"(.*)",$`)
	byNum := map[int][]string{}
	constLine := map[string]int{}
	msgs := map[int]string{}
	msgLine := map[int]int{}
	inTable := false
	for i, l := range lines {
		if m := constRE.FindStringSubmatch(l); m != nil {
			n, _ := strconv.ParseInt(m[2], 0, 64)
			byNum[int(n)] = append(byNum[int(n)], m[1])
			constLine[m[1]] = i + 1
		}
		if strings.HasPrefix(l, "var errors = [...]string{") {
			inTable = true
		} else if inTable && l == "}" {
			inTable = false
		} else if m := msgRE.FindStringSubmatch(l); inTable && m != nil {
			n, _ := strconv.Atoi(m[1])
			msgs[n] = m[2]
			msgLine[n] = i + 1
		}
	}
	var nums []int
	for n := range msgs {
		nums = append(nums, n)
	}
	sort.Ints(nums)
	for _, n := range nums {
		names := byNum[n]
		if len(names) == 0 {
			continue
		}
		name := names[0]
		num := n
		r := &record{
			Repo:          p.repo,
			Slug:          "syscall-" + name,
			ErrorCode:     name,
			ErrorMessage:  msgs[n],
			ErrorType:     "errno",
			ErrorClass:    "syscall.Errno",
			Severity:      "error",
			FilePath:      rel,
			LineNumber:    constLine[name],
			SourceCode:    lines[constLine[name]-1],
			SourceStart:   constLine[name],
			SourceEnd:     constLine[name],
			TypeGuard:     fmt.Sprintf("if errors.Is(err, syscall.%s) {\n\t// ...\n}", name),
			NumericCode:   &num,
			GoPackage:     "syscall",
			Tags:          []string{"syscall", "errno"},
			Documentation: fmt.Sprintf("%s is errno %d on linux/amd64: %q.", name, n, msgs[n]),
		}
		if len(names) > 1 {
			r.Documentation += " The same number is also named " + strings.Join(names[1:], ", ") + "."
		}
		p.add(r)
	}
}

// apiError is one entry of nats-server's server/errors.json.
type apiError struct {
	Constant    string `json:"constant"`
	Code        int    `json:"code"`
	ErrorCode   int    `json:"error_code"`
	Description string `json:"description"`
	Comment     string `json:"comment"`
	Help        string `json:"help"`
}

// apiErrors reads nats-server's JetStream API errors and takes each one's
// constructor from server/jetstream_errors_generated.go as its snippet.
func (p *project) apiErrors() {
	data, err := os.ReadFile(filepath.Join(p.dir, "server/errors.json"))
	if err != nil {
		log.Fatal(err)
	}
	var list []apiError
	if err := json.Unmarshal(data, &list); err != nil {
		log.Fatal(err)
	}
	gen := "server/jetstream_errors_generated.go"
	src, err := os.ReadFile(filepath.Join(p.dir, gen))
	if err != nil {
		log.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	for _, e := range list {
		status, num := e.Code, e.ErrorCode
		ctor := "New" + strings.TrimSuffix(strings.TrimSuffix(e.Constant, "ErrF"), "Err") + "Error"
		start := 0
		for i, l := range lines {
			if strings.HasPrefix(l, "func "+ctor+"(") {
				start = i
				break
			}
		}
		end := start
		for end < len(lines) && lines[end] != "}" {
			end++
		}
		if start > 0 && strings.HasPrefix(lines[start-1], "//") {
			start--
		}
		r := &record{
			Repo:          p.repo,
			Slug:          "server-" + e.Constant,
			ErrorCode:     e.Constant,
			ErrorMessage:  e.Description,
			ErrorType:     "jetstream_api_error",
			ErrorClass:    "ApiError",
			HTTPStatus:    &status,
			Severity:      "error",
			FilePath:      gen,
			LineNumber:    start + 2,
			SourceCode:    strings.Join(lines[start:end+1], "\n"),
			SourceStart:   start + 1,
			SourceEnd:     end + 1,
			Documentation: strings.TrimSpace(e.Comment + "\n\n" + e.Help),
			TypeGuard:     fmt.Sprintf("if IsNatsErr(err, %s) {\n\t// ...\n}", e.Constant),
			NumericCode:   &num,
			GoPackage:     "github.com/nats-io/nats-server/v2/server",
			Tags:          []string{"jetstream"},
		}
		if strings.Contains(e.Description, "{") {
			r.MessagePattern = e.Description
		}
		p.add(r)
	}
}

// write stores the project's records, one envelope per line, with the
// license and _source.json beside them.
func (p *project) write(out string) error {
	dir := filepath.Join(out, p.repo)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	lic, err := os.ReadFile(filepath.Join(p.dir, p.license))
	if err != nil {
		return fmt.Errorf("license of %s: %w", p.repo, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "LICENSE"), lic, 0o644); err != nil {
		return err
	}
	prov, _ := json.MarshalIndent(map[string]string{
		"repo": p.repo, "module": p.module, "version": p.version, "commit": "",
		"license": p.spdx, "licenseFile": "LICENSE", "tool": "scripts/realrecords",
	}, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "_source.json"), append(prov, '\n'), 0o644); err != nil {
		return err
	}
	var b strings.Builder
	for _, r := range p.recs {
		line, err := json.Marshal(map[string]any{"record": r, "datasetVersion": "realrelevance-1"})
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return os.WriteFile(filepath.Join(dir, "records.jsonl"), []byte(b.String()), 0o644)
}
