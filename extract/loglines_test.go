package extract

import (
	"go/token"
	"go/types"
	"testing"
)

// TestLoggerShape checks which calls are log lines by name and
// signature alone, for the shapes of the loggers people use.
func TestLoggerShape(t *testing.T) {
	str, anyT := types.Typ[types.String], types.Universe.Lookup("any").Type()
	errT := types.Universe.Lookup("error").Type()
	field := types.NewNamed(types.NewTypeName(token.NoPos, nil, "Field", nil), types.NewStruct(nil, nil), nil)
	sig := func(variadic bool, params ...types.Type) *types.Signature {
		var vars []*types.Var
		for _, p := range params {
			vars = append(vars, types.NewParam(token.NoPos, nil, "", p))
		}
		return types.NewSignatureType(nil, nil, nil, types.NewTuple(vars...), nil, variadic)
	}
	returnsErr := types.NewSignatureType(nil, nil, nil, sig(true, str, types.NewSlice(anyT)).Params(),
		types.NewTuple(types.NewParam(token.NoPos, nil, "", errT)), true)
	tests := []struct {
		name   string
		sig    *types.Signature
		want   int // the message's index; -1 when it is no logger
		format bool
	}{
		{"Errorf", sig(true, str, types.NewSlice(anyT)), 0, true},              // s.Errorf, log.Fatalf, klog.Errorf
		{"RateLimitWarnf", sig(true, str, types.NewSlice(anyT)), 0, true},      // nats-server
		{"Error", sig(true, str, types.NewSlice(anyT)), 0, false},              // slog.Error
		{"ErrorContext", sig(true, anyT, str, types.NewSlice(anyT)), 1, false}, // slog.ErrorContext
		{"Warn", sig(true, str, types.NewSlice(field)), 0, false},              // zap
		{"ErrorS", sig(true, errT, str, types.NewSlice(anyT)), 1, false},       // klog.ErrorS
		{"Error", sig(true, types.NewSlice(anyT)), 0, false},                   // logrus, klog.Error
		{"Info", sig(false, str), 0, false},                                    // a plain method
		{"Warnf", sig(true, str, types.NewSlice(field)), -1, false},            // a format needs ...any
		{"softErrorf", sig(true, str, types.NewSlice(anyT)), -1, false},        // unexported, not a level
		{"serveError", sig(false, anyT, types.Typ[types.Int], str), -1, false}, // an HTTP reply
		{"Printf", sig(true, str, types.NewSlice(anyT)), -1, false},            // no level
		{"Errorf", sig(false, types.Typ[types.Int]), -1, false},                // no message
		{"Debugf", sig(true, str, types.NewSlice(anyT)), 0, true},              // grpclog, logrus
		{"Warningf", sig(true, str, types.NewSlice(anyT)), 0, true},            // klog, grpclog
		{"Infow", sig(true, str, types.NewSlice(anyT)), 0, false},              // zap's sugared logger
		{"Fatalln", sig(true, types.NewSlice(anyT)), 0, false},                 // log.Fatalln
		{"Errorf", returnsErr, -1, false},                                      // status.Errorf makes an error
	}
	for _, tt := range tests {
		got := -1
		level, i, format, ok := loggerMessage(tt.name, tt.sig)
		if ok {
			got = i
		}
		if got != tt.want || ok && format != tt.format {
			t.Errorf("%s%s: message %d (format %v), want %d (%v)", tt.name, tt.sig, got, format, tt.want, tt.format)
		}
		if ok && level == "" {
			t.Errorf("%s: no level", tt.name)
		}
	}
}
