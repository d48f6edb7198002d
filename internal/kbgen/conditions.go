package kbgen

// condition is a failure mode that can happen to any subject. Message
// templates use {S} for the subject, {Sp} for its plural and <name:k> for a
// placeholder of kind k: q (quoted string), s (string) or d (integer).
type condition struct {
	slug   string
	class  string
	phrase string
	http   int
	family int
	msgs   []string
}

// Families group conditions that share prose: causes, fixes and tips.
const (
	famNotFound = iota
	famConflict
	famTimeout
	famLimit
	famValidation
	famAuth
	famUnavailable
	famIntegrity
	famState
	famIO
	famCompat
	famResource
)

// conditions is indexed together with subjects to build unique slugs, so
// slugs must be distinct.
var conditions = []condition{
	{"not-found", "NotFound", "not found", 404, famNotFound, []string{"{S} <name:q> not found", "no {S} named <name:q> in <scope:s>", "{S} <id:d> does not exist"}},
	{"missing-field", "MissingField", "missing a required field", 400, famNotFound, []string{"{S} is missing required field <field:q>", "required field <field:s> not set on {S} <name:q>"}},
	{"unknown-kind", "UnknownKind", "of an unknown kind", 400, famNotFound, []string{"unknown {S} kind <kind:q>", "unrecognized {S} type <kind:s>"}},
	{"already-exists", "AlreadyExists", "already exists", 409, famConflict, []string{"{S} <name:q> already exists", "cannot create {S} <name:s>: name already in use"}},
	{"version-conflict", "VersionConflict", "modified concurrently", 409, famConflict, []string{"{S} <name:q> was modified concurrently (expected revision <expected:d>, got <actual:d>)", "{S} revision conflict"}},
	{"locked", "Locked", "locked", 423, famConflict, []string{"{S} <name:q> is locked by <holder:s>", "could not acquire lock on {S} <name:s> after <attempts:d> attempts"}},
	{"duplicate-key", "DuplicateKey", "holding a duplicate key", 409, famConflict, []string{"duplicate key <key:q> in {S}", "{S} already contains key <key:s>"}},
	{"timeout", "Timeout", "timed out", 504, famTimeout, []string{"{S} <name:q> timed out after <ms:d>ms", "timed out waiting for {S}"}},
	{"deadline-exceeded", "DeadlineExceeded", "past its deadline", 504, famTimeout, []string{"deadline exceeded while waiting for {S} <id:d>", "{S} deadline exceeded"}},
	{"no-response", "NoResponse", "not responding", 504, famTimeout, []string{"no response from {S} <addr:s> within <seconds:d>s", "{S} did not respond"}},
	{"limit-exceeded", "LimitExceeded", "over its limit", 400, famLimit, []string{"{S} limit of <max:d> exceeded", "too many {Sp}: <count:d> > <max:d>"}},
	{"too-large", "TooLarge", "too large", 413, famLimit, []string{"{S} size <size:d> exceeds maximum of <max:d> bytes", "{S} payload too large"}},
	{"rate-limited", "RateLimited", "rate limited", 429, famLimit, []string{"{S} requests rate limited, retry after <seconds:d>s", "{S} rate limit reached"}},
	{"quota-exceeded", "QuotaExceeded", "over quota", 429, famLimit, []string{"quota exceeded for {S} in account <account:q>", "{S} quota exhausted (<used:d>/<max:d>)"}},
	{"invalid-config", "InvalidConfig", "misconfigured", 400, famValidation, []string{"invalid {S} config: <reason:s>", "{S} config field <field:q> is invalid: <reason:s>"}},
	{"malformed", "Malformed", "malformed", 400, famValidation, []string{"malformed {S} <name:q>: <reason:s>", "malformed {S} header"}},
	{"invalid-name", "InvalidName", "badly named", 400, famValidation, []string{"invalid {S} name <name:q>: must match <pattern:s>", "{S} name must not be empty"}},
	{"out-of-range", "OutOfRange", "out of range", 400, famValidation, []string{"{S} <field:s> value <value:d> out of range [<min:d>, <max:d>]", "{S} index <value:d> out of range"}},
	{"permission-denied", "PermissionDenied", "not permitted", 403, famAuth, []string{"permission denied: <user:q> cannot <action:s> {S} <name:q>", "{S} access denied"}},
	{"unauthorized", "Unauthorized", "unauthenticated", 401, famAuth, []string{"unauthorized {S} request: <reason:s>", "missing credentials for {S}"}},
	{"expired", "Expired", "expired", 401, famAuth, []string{"{S} <id:q> expired at <time:s>", "{S} has expired"}},
	{"signature-invalid", "SignatureInvalid", "incorrectly signed", 401, famAuth, []string{"invalid signature on {S} <name:q>", "{S} signature verification failed: <reason:s>"}},
	{"unavailable", "Unavailable", "unavailable", 503, famUnavailable, []string{"{S} <name:q> is unavailable", "{S} service unavailable: <reason:s>"}},
	{"offline", "Offline", "offline", 503, famUnavailable, []string{"{S} is offline", "{S} <name:q> is offline: <reason:s>"}},
	{"no-leader", "NoLeader", "without a leader", 503, famUnavailable, []string{"no leader elected for {S} <name:q>", "{S} has no leader"}},
	{"connection-refused", "ConnectionRefused", "refusing connections", 502, famUnavailable, []string{"connection refused by {S} at <addr:s>", "dial {S} <addr:q>: connection refused"}},
	{"checksum-mismatch", "ChecksumMismatch", "failing its checksum", 422, famIntegrity, []string{"{S} checksum mismatch: expected <expected:s>, got <actual:s>", "{S} checksum mismatch"}},
	{"corrupted", "Corrupted", "corrupted", 500, famIntegrity, []string{"{S} <name:q> is corrupted at offset <offset:d>", "corrupt {S} detected"}},
	{"decode-failed", "DecodeFailed", "undecodable", 422, famIntegrity, []string{"failed to decode {S}: <reason:s>", "cannot unmarshal {S} <name:q>"}},
	{"truncated", "Truncated", "truncated", 500, famIntegrity, []string{"{S} truncated: read <got:d> of <want:d> bytes", "unexpected end of {S}"}},
	{"not-ready", "NotReady", "not ready", 503, famState, []string{"{S} <name:q> is not ready", "{S} not ready yet"}},
	{"closed", "Closed", "closed", 410, famState, []string{"{S} already closed", "use of closed {S} <name:q>"}},
	{"invalid-state", "InvalidState", "in the wrong state", 409, famState, []string{"{S} <name:q> cannot transition from <from:s> to <to:s>", "{S} in invalid state <state:q>"}},
	{"deleted", "Deleted", "deleted", 410, famState, []string{"{S} <name:q> has been deleted", "{S} was deleted"}},
	{"write-failed", "WriteFailed", "not writable", 500, famIO, []string{"failed to write {S} <name:q>: <reason:s>", "{S} write failed"}},
	{"disk-full", "DiskFull", "out of disk space", 507, famIO, []string{"no space left while writing {S} to <path:s>", "{S} store is full"}},
	{"read-failed", "ReadFailed", "unreadable", 500, famIO, []string{"error reading {S} from <path:q>", "{S} read failed: <reason:s>"}},
	{"unsupported-version", "UnsupportedVersion", "of an unsupported version", 400, famCompat, []string{"unsupported {S} version <version:d> (supported: <min:d>-<max:d>)", "{S} version not supported"}},
	{"incompatible", "Incompatible", "incompatible", 409, famCompat, []string{"{S} <name:q> is incompatible with <other:s>", "incompatible {S} format"}},
	{"deprecated", "Deprecated", "deprecated", 400, famCompat, []string{"{S} option <option:q> is deprecated; use <replacement:q> instead", "{S} API is deprecated"}},
	{"exhausted", "Exhausted", "exhausted", 503, famResource, []string{"{S} pool exhausted (<size:d> in use)", "no free {Sp} available"}},
	{"leak-detected", "LeakDetected", "leaked", 500, famResource, []string{"{S} <name:q> leaked: not released after <seconds:d>s", "{S} leak detected"}},
	{"deadlock", "Deadlock", "deadlocked", 500, famResource, []string{"deadlock detected acquiring {S} <name:q>", "{S} deadlock detected"}},
}

// errorTypes and handling strategies are small closed vocabularies, the way
// the real knowledge base classifies records.
var errorTypes = []string{"error_code", "error_code", "exception", "error_class", "http_error", "panic", "log_message"}

var strategies = [...][]string{
	famNotFound:    {"validation", "fallback"},
	famConflict:    {"retry", "validation"},
	famTimeout:     {"retry", "circuit-breaker"},
	famLimit:       {"backoff", "validation"},
	famValidation:  {"validation", "fail-fast"},
	famAuth:        {"fail-fast", "escalate"},
	famUnavailable: {"retry", "circuit-breaker", "fallback"},
	famIntegrity:   {"fail-fast", "escalate"},
	famState:       {"retry", "validation"},
	famIO:          {"retry", "escalate"},
	famCompat:      {"validation", "fail-fast"},
	famResource:    {"backoff", "escalate"},
}
