// Package extract reads the errors a Go module defines and raises from its
// source: package-level sentinels, errors made inside functions, error
// types, and the code constants attached to them. It produces plain data
// (Error values); turning them into records is a separate step (Records).
//
// The module is loaded by extract/program (golang.org/x/tools/go/packages)
// with full type information under the default build constraints, so a
// name is whatever the type checker says it is: an aliased or dot import,
// a local variable that shadows a sentinel, a file another platform
// builds, all come out right. The shapes it looks for are read from the
// syntax: a sentinel is raised where it is returned, not where it is
// compared.
package extract

import (
	"context"
	"errors"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/errkb/errkb/extract/program"
)

// Kind is how an error is made.
type Kind string

const (
	Sentinel Kind = "sentinel"  // a package-level variable
	Call     Kind = "call_site" // errors.New or fmt.Errorf inside a function
	Type     Kind = "error_type"
	API      Kind = "api_error" // an entry of a project's own error table (see natserrors)
	Log      Kind = "log_line"  // a constant message or format given to a logger
	Protocol Kind = "protocol"  // a string sent to clients over the wire (-ERR, a close reason)
)

// Error is one error of the module, as the source states it.
type Error struct {
	Kind    Kind
	Package string // import path of the defining package
	PkgName string // its package name
	Name    string // the Go identifier; "" for a Call error
	Func    string // for a Call error, the enclosing function, e.g. "(*Conn).Flush"
	Message string // exactly as written; a format string for fmt.Errorf and fmt.Sprintf
	Where          // of the definition; File is relative to the module's root
	// Span, when set, is the definition's own lines (a generated
	// constructor with its doc comment): the snippet shows them instead of
	// the lines around Line.
	Span     [2]int
	Doc      string // the doc comment, when there is one
	Pointer  bool   // for a Type, Error() has a pointer receiver
	Internal bool   // its package is internal: only the module itself can name it

	Code       *Code    // the code constant the error carries, if any
	HTTPStatus int      // 0 when the source gives none
	Wraps      []string // keys of the errors this one wraps with %w
	Sites      []Site   // where the error is raised, sorted
	// Surface is how a user meets the error (errkb.SurfaceReturned...):
	// preset by the kind (a log line, a protocol string), else read from
	// what the code does with it; "" when the code does not tell.
	Surface  string
	Severity string // a log line's level; "" for "error"
	// Mapped lists the places where the module's code turns a code into
	// this sentinel (if apiErr.ErrorCode == JSErrCodeStreamNotFound {
	// return ErrStreamNotFound }), sorted.
	Mapped []Mapping
	// Closes are the places where the code closes the connection right
	// after logging or sending the error, sorted.
	Closes []Closing
}

// Closing is a call that closes the connection right after the error is
// logged or sent: Call is the function called, Func the one it is in.
type Closing struct {
	Site
	Call string
}

// Mapping is a place where code compares an error's code with a code
// constant and, when they are equal, returns a sentinel.
type Mapping struct {
	Code Code
	At   Where // the comparison
}

// Key identifies the error within its module, stably across versions:
// the package and identifier, or for a Call error the package and message.
func (e *Error) Key() string {
	if e.Name != "" {
		return e.Package + "." + e.Name
	}
	if e.Kind == Log || e.Kind == Protocol { // the same text logged and returned is two records
		return e.Package + ":" + string(e.Kind) + ":" + e.Message
	}
	return e.Package + ":" + e.Message
}

// Code is a constant of a named code type (JSErrCodeStreamNotFound
// ErrorCode = 10059), with where an error carries it: the composite
// literal's type and field (APIError, ErrorCode).
type Code struct {
	Name         string
	Value        int
	Package      string // import path of the constant
	PkgName      string
	CarrierType  string // the struct type holding the code in the error's literal
	CarrierField string // its field
	// At is the constant's declaration, which states its value; for a
	// project's own error table, the line of the entry that does.
	At Where
}

// Site is one place where an error is raised.
type Site struct {
	Where
	Func string
}

// Problem is what the loader reported about a file or package. A file
// that does not parse is skipped whole (Skipped); a type error leaves the
// names it touches unresolved, so errors made with them are not
// extracted, and the rest of the file is.
type Problem struct {
	File    string // relative to the module's root; else the package's path
	Err     string
	Skipped bool
}

func (p Problem) String() string {
	if p.Skipped {
		return "skipped " + p.File + ": " + p.Err
	}
	return p.File + ": " + p.Err
}

// Result is what Extract found.
type Result struct {
	Module   string // module path ("std" for the standard library)
	Errors   []Error
	Problems []Problem
	// Calls lists the call sites of the functions Options.TrackCalls asked
	// for, keyed like TrackCalls ("import/path.Func").
	Calls map[string][]Site
	// Files is how many of the module's Go files were read.
	Files int
}

// Options tune Extract.
type Options struct {
	// TrackCalls names package-level functions ("import/path.Func") whose
	// call sites Result.Calls should list; adapters use it for
	// constructors of a project's own error table.
	TrackCalls map[string]bool
	// NoSurface leaves Error.Surface empty, sparing the SSA form and the
	// data flow it is read from.
	NoSurface bool
}

// ErrNoGoCode is returned for a source without Go code to extract.
var ErrNoGoCode = errors.New("holds no Go code")

// Extract finds the errors of a loaded module. What the loader reported
// is in Result.Problems; everything else is extracted.
func Extract(prog *program.Program, opts Options) *Result {
	res := &Result{Module: prog.Origin.Module, Calls: map[string][]Site{}}
	for _, p := range prog.Packages {
		res.Files += len(p.Syntax)
		res.Problems = append(res.Problems, problems(prog, p)...)
	}
	analyze(prog, opts, res)
	return res
}

// Dir loads and extracts the module rooted at root as a folder SOURCE
// with the default options: no tags, tests and scaffolding left out.
func Dir(root string, opts Options) (*Result, error) {
	s, err := local(root, "")
	if err != nil {
		return nil, err
	}
	prog, err := Load(context.Background(), s, LoadOptions{})
	if err != nil {
		return nil, err
	}
	return Extract(prog, opts), nil
}

// problems lists what the loader said about p.
func problems(prog *program.Program, p *program.Package) []Problem {
	var out []Problem
	for _, e := range p.Errors {
		file := p.PkgPath
		if name, _, ok := strings.Cut(e.Pos, ":"); ok {
			if rel, ok := prog.Rel(name); ok {
				file = rel
			}
		}
		out = append(out, Problem{File: file, Err: e.Msg, Skipped: e.Kind == packages.ParseError})
	}
	slices.SortStableFunc(out, func(a, b Problem) int { return strings.Compare(a.File, b.File) })
	// A file skipped is one problem, with the parser's first error.
	return slices.CompactFunc(out, func(a, b Problem) bool { return a.File == b.File && (a.Skipped && b.Skipped || a.Err == b.Err) })
}
