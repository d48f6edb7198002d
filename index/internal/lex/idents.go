package lex

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/errkb/errkb"
)

// IsNumber reports whether s is a run of ASCII digits.
func IsNumber(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// QualifiedNames calls f with each package-qualified name that code uses
// for r, lower-cased: "syscall.eperm" from a guard comparing against
// syscall.EPERM, and the record's code under its Go package's name
// ("zip.errchecksum" for ErrChecksum of archive/zip). A qualified name
// tells apart records whose bare names are the same (zip's and zlib's
// ErrChecksum), and so does the import path it is written with.
func QualifiedNames(r *errkb.Record, f func(string)) {
	for _, s := range []string{r.TypeGuard, r.ExampleFix, r.ValidationCode, r.TryCatchPattern} {
		for _, m := range qualifiedRE.FindAllString(s, 64) {
			if q, name, _ := strings.Cut(m, "."); q != "errors" && q != "fmt" && len(name) >= 2 {
				f(strings.ToLower(m))
			}
		}
	}
	if r.GoPackage != "" && r.ErrorCode != "" && qualifiedRE.MatchString("x."+r.ErrorCode) {
		pkg := r.GoPackage[strings.LastIndex(r.GoPackage, "/")+1:]
		f(strings.ToLower(pkg + "." + r.ErrorCode))
		f(strings.ToLower(r.GoPackage + "." + r.ErrorCode))
	}
	// The name the record gives itself ("jetstream.ErrNoResponders"), and
	// the same under the package's import path, as docs and stack traces
	// write it ("github.com/nats-io/nats.go/jetstream.ErrNoResponders").
	if q := r.QualifiedName; qualifiedRE.FindString(q) == q && q != "" {
		f(strings.ToLower(q))
		if _, name, _ := strings.Cut(q, "."); r.GoPackage != "" {
			f(strings.ToLower(r.GoPackage + "." + name))
		}
	}
}

// qualifiedRE matches a Go package-qualified exported name: "zip.ErrChecksum".
var qualifiedRE = regexp.MustCompile(`\b[a-z][a-z0-9]*\.[A-Z][A-Za-z0-9_]*\b`)

// QualifiedName splits a chunk written as a Go qualified name, with the
// pointer, address or composite-literal marks code adds ("*fs.PathError",
// "&url.Error{}"), into its package and name.
func QualifiedName(c string) (pkg, name string, ok bool) {
	c = strings.TrimLeft(c, "*&")
	c = strings.TrimSuffix(c, "{}")
	if !qualifiedRE.MatchString(c) || qualifiedRE.FindString(c) != c {
		return "", "", false
	}
	pkg, name, _ = strings.Cut(c, ".")
	return pkg, name, true
}

// CapsIdent reports whether s is written like a constant: five or more
// capitals and digits, as errno names are (EWOULDBLOCK, E2BIG).
func CapsIdent(s string) bool {
	if len(s) < 5 {
		return false
	}
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// ScanIdents calls f with each identifier ([A-Za-z_][A-Za-z0-9_]*) and
// each number of three digits or more in code. It is a hand-written
// scanner because regexp made it the largest cost of start-up.
func ScanIdents(s string, f func(string)) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i + 1
			for j < len(s) && isIdentByte(s[j]) {
				j++
			}
			f(s[i:j])
			i = j
		case c >= '0' && c <= '9':
			j := i + 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			if j-i >= 3 {
				f(s[i:j])
			}
			for j < len(s) && isIdentByte(s[j]) {
				j++ // the rest of "10ms" or "0x1f"
			}
			i = j
		default:
			i++
		}
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// DistinctiveIdent keeps identifiers that can name one error: numbers of
// three digits or more, and names of six characters or more written in
// camelCase, snake_case or with digits. Plain words, capitalized or not
// ("errors", "CONSUMER"), are left to text search.
func DistinctiveIdent(s string) bool {
	if len(s) < 3 {
		return false
	}
	if s[0] >= '0' && s[0] <= '9' {
		return true
	}
	if len(s) < 6 {
		return false
	}
	prevLower := false
	for _, r := range s {
		if r == '_' || unicode.IsDigit(r) || (prevLower && unicode.IsUpper(r)) {
			return true
		}
		prevLower = unicode.IsLower(r)
	}
	return false
}
