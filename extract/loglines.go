package extract

import (
	"go/ast"
	"go/types"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/errkb/errkb"
)

// logLevelRE finds a logging call by its name: a level word, then the
// suffixes loggers give their variants (Errorf, Warningf, Infow, ErrorS,
// Errorln, ErrorContext), after any prefix (RateLimitWarnf).
var logLevelRE = regexp.MustCompile(`(Error|Warning|Warn|Notice|Info|Fatal|Panic|Critical|Debug|Trace)(f|w|S|ln|Context|Ctx|Depth|Depthf)?$`)

// logSeverity maps a level word to a record's severity.
var logSeverity = map[string]string{
	"Error": "error", "Warning": "warning", "Warn": "warning", "Notice": "info", "Info": "info",
	"Fatal": "fatal", "Panic": "fatal", "Critical": "fatal", "Debug": "debug", "Trace": "debug",
}

// notLoggers are packages whose functions of a logger's name make or
// report errors rather than log them.
var notLoggers = []string{"fmt", "errors", "github.com/pkg/errors", "testing"}

// logLine makes a call of a logger with a constant message or format a
// log record. A logger is found by shape, not by name of package: a
// function or method named for a level (logLevelRE, loggerName), returning nothing,
// whose message parameter is a string: a format before ...any for an
// f-variant (s.Errorf, log.Fatalf, klog.Errorf, grpclog.Errorf), else
// the string before key-values or fields (slog.Error, zap's Error,
// klog.ErrorS, logr's Error), or a lone ...any printed as fmt.Print does
// (logrus, klog.Error, log.Fatal). The known sentinels it logs are its
// wraps.
func (s *scope) logLine(call *ast.CallExpr, fn string) {
	callee, _ := typeutil.Callee(s.info, call).(*types.Func)
	if callee == nil || callee.Pkg() == nil || slices.Contains(notLoggers, callee.Pkg().Path()) {
		return
	}
	sig := callee.Signature()
	level, i, format, ok := loggerMessage(callee.Name(), sig)
	if !ok || i >= len(call.Args) || call.Ellipsis.IsValid() && sig.Params().Len() == 1 {
		return
	}
	msg, ok := s.constString(call.Args[i])
	if !ok {
		return
	}
	if !format && sig.Params().Len() == 1 && sig.Variadic() && len(call.Args) > 1 { // fmt.Print: each further operand follows
		msg = strings.ReplaceAll(msg, "%", "%%") + strings.Repeat("%v", len(call.Args)-1)
	}
	e := &Error{Kind: Log, Surface: errkb.SurfaceLog, Severity: level, Message: msg}
	for _, a := range call.Args[i+1:] {
		if k := s.sentinelKey(a); k != "" && s.m.sentinels[k] != nil {
			e.Wraps = append(e.Wraps, k)
		}
	}
	if at, ok := s.site(call, fn); ok {
		s.add(e, at)
	}
}

// loggerMessage says whether a function of this name and signature is a
// logger: its level (a record's severity), its message parameter, and
// whether that is a format.
func loggerMessage(name string, sig *types.Signature) (level string, i int, format bool, ok bool) {
	lv := logLevelRE.FindStringSubmatch(name)
	if lv == nil || !loggerName(name, lv[0]) || sig.Results().Len() != 0 {
		return "", 0, false, false
	}
	i, format, ok = logMessageParam(sig, lv[2] == "f" || lv[2] == "Depthf")
	return logSeverity[lv[1]], i, format, ok
}

// loggerName reports a name that is a level (Errorf, Warn) or an
// exported name ending in one (RateLimitWarnf): an unexported helper that
// ends in a level (softErrorf, serveError) reports errors some other way.
func loggerName(name, level string) bool {
	return name == level || name[0] >= 'A' && name[0] <= 'Z'
}

// logMessageParam is the index of a logger's message parameter, and
// whether it is a format.
func logMessageParam(sig *types.Signature, fVariant bool) (int, bool, bool) {
	params := sig.Params()
	n := params.Len()
	if n == 0 {
		return 0, false, false
	}
	if sig.Variadic() {
		if n >= 2 && isString(params.At(n-2).Type()) {
			return n - 2, fVariant, !fVariant || isAnySlice(params.At(n-1).Type())
		}
		if n == 1 && !fVariant && isAnySlice(params.At(0).Type()) {
			return 0, false, true
		}
		return 0, false, false
	}
	if !fVariant && isString(params.At(n-1).Type()) {
		return n - 1, false, true
	}
	return 0, false, false
}

// isAnySlice reports []any (a variadic ...any).
func isAnySlice(t types.Type) bool {
	sl, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	it, ok := sl.Elem().Underlying().(*types.Interface)
	return ok && it.Empty()
}
