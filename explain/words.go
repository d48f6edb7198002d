package explain

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/errkb/errkb"
)

// The words errkb adds to a record's facts come only from this file, so
// the page, the terminal text and the Markdown say the same thing and
// nothing is paraphrased from a record's data.

// Headline is what a record is called at the top of its page: the
// package-qualified name the code uses, else its code, else its message.
func Headline(r *errkb.Record) string {
	switch {
	case r.QualifiedName != "":
		return r.QualifiedName
	case r.ErrorCode != "":
		return r.ErrorCode
	}
	return r.ErrorMessage
}

// surfaceSentences says, one fixed sentence per value of Record.Surface,
// how an engineer meets the error.
var surfaceSentences = map[string]string{
	errkb.SurfaceReturned: "Returned to callers of the package's API.",
	errkb.SurfaceProtocol: "Sent to clients over the wire (a -ERR line or a JetStream API error response); the client receives it as an error.",
	errkb.SurfaceLog:      "The server writes this to its log; no caller receives it as an error value.",
	errkb.SurfaceStartup:  "Refuses to start: reported while the configuration is read or the server starts.",
}

// closedSentences replace surfaceSentences when the code closes the
// connection right after it logs or sends the error (Record.Closes).
var closedSentences = map[string]string{
	errkb.SurfaceLog:      "The server writes this to its log and closes the connection: the client is dropped, and no caller receives it as an error value.",
	errkb.SurfaceProtocol: "Sent to the client over the wire, then the server closes the connection; the client receives it as an error.",
}

// DiffersTitle heads what a curated record states otherwise than the code.
const DiffersTitle = "Where the code differs"

// ClosesWords introduce the call that closes the connection after the
// error (Record.Closes).
const ClosesWords = "Then closes the connection:"

// Surface is the sentence for r's surface, "" when the record has none
// (or one this version does not know).
func Surface(r *errkb.Record) string {
	if s, ok := closedSentences[r.Surface]; ok && len(r.Closes) > 0 {
		return s
	}
	return surfaceSentences[r.Surface]
}

// SideName is how a face's side reads: "server" or "Go client".
func SideName(side string) string {
	switch side {
	case "server":
		return "server"
	case "client":
		return "Go client"
	}
	return side
}

// ShowsGuard reports whether r's own Go guard (typeGuard) is offered: only
// to callers who can receive the error, that is when its surface is
// returned or not known, and never the server.ApiError guard of a
// JetStream API error, which a client cannot use (ClientCheck replaces
// it). A curated record's guard keeps its place.
func ShowsGuard(r *errkb.Record) bool {
	if strings.TrimSpace(r.TypeGuard) == "" {
		return false
	}
	if Curated(r) {
		return true // a hand-written record's guard is served as written
	}
	if r.Surface != "" && r.Surface != errkb.SurfaceReturned {
		return false
	}
	return !IsAPIError(r)
}

// IsAPIError reports whether r is a nats-server JetStream API error with
// a numeric err_code, which a client checks by that code.
func IsAPIError(r *errkb.Record) bool {
	return r.ErrorType == "api_error" && r.NumericCode != nil
}

// Curated reports whether r was written by hand: it cites sources for its
// prose, or it carries none of the facts only extraction fills.
func Curated(r *errkb.Record) bool {
	// A curated record merged with its extracted twin carries the twin's
	// facts (its package, its call sites) under Extracted, and some of
	// them in its own empty fields: that alone makes it curated.
	return r.Extracted != nil || len(r.Sources) > 0 || (r.GoPackage == "" && len(r.CallSites) == 0)
}

// SeverityStated reports whether r's severity is something its source
// says, and so worth showing: a hand-written record's author chose it;
// an extracted one states it only when it is not the extractor's default
// "error" (a log level, a panic, a fatal) or when the error is met in the
// log or at start-up, where the code's log call sets the level.
func SeverityStated(r *errkb.Record) bool {
	if r.Severity == "" {
		return false
	}
	if Curated(r) || r.Severity != "error" {
		return true
	}
	return r.Surface == errkb.SurfaceLog || r.Surface == errkb.SurfaceStartup
}

// sentinelName matches a package-qualified Go identifier such as
// nats.ErrStreamNotFound, the only face names a guard may quote.
var sentinelName = regexp.MustCompile(`^[a-z][a-z0-9_]*\.Err[A-Za-z0-9_]*$`)

// ClientCheck is the Go code with which a nats.go client checks for a
// JetStream API error: errors.As on the client package's APIError and
// its err_code, and errors.Is on each client sentinel the record's faces
// name. "" for any other record.
func ClientCheck(r *errkb.Record) string {
	if !IsAPIError(r) {
		return ""
	}
	code := strconv.Itoa(*r.NumericCode)
	pkg := "nats"
	var sentinels []string
	for _, f := range r.Faces {
		if f.Side == "client" && sentinelName.MatchString(f.Name) {
			sentinels = append(sentinels, f.Name)
			if strings.HasPrefix(f.Name, "jetstream.") && len(sentinels) == 1 {
				pkg = "jetstream"
			}
		}
	}
	var b strings.Builder
	b.WriteString("var apiErr *" + pkg + ".APIError\n")
	b.WriteString("if errors.As(err, &apiErr) && apiErr.ErrorCode == " + code + " {\n")
	note := "\t// " + oneLine(r.ErrorMessage) + "\n}"
	b.WriteString(note)
	for _, s := range sentinels {
		b.WriteString("\nif errors.Is(err, " + s + ") {\n" + note)
	}
	return b.String()
}

// Conditions, entries and the rest are listed with these words.
const (
	FacesTitle      = "The same error elsewhere"
	UnconditionalIn = "unconditional in"
	TestsLabel      = "The module's own tests that provoke and assert this error:"
	InternalNote    = "Internal: made in an internal package or a test helper."
)

// guardWords introduce a guard by its kind: the condition as written in
// Go follows them (on an else branch it is written negated already).
var guardWords = map[string]string{
	"if":   "when",
	"else": "when (else branch)",
	"case": "in case",
	"call": "when this call fails:",
}

// GuardWords is how a guard of kind reads; an unknown kind reads as
// itself.
func GuardWords(kind string) string {
	if w, ok := guardWords[kind]; ok {
		return w
	}
	return kind
}
