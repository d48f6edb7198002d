package kbgen

// prose holds the Markdown building blocks of one condition family. Strings
// are templates expanded by expand: {S} subject, {Sp} plural, {code} error
// code, {cli} project CLI, {cfg} config key, {fn} raising function,
// {phrase} condition phrase.
type prose struct {
	doc        []string
	causes     []string
	situations []string
	solutions  []string
	tips       []string
}

var families = [...]prose{
	famNotFound: {
		doc:        []string{"The lookup is exact: names are matched after normalization but never by prefix.", "Nothing is created implicitly, so a missing {S} stays missing until it is declared."},
		causes:     []string{"a client references a {S} that was never created", "the {S} was removed by a cleanup job before the request arrived", "a typo or wrong casing in the {S} name", "the request targets the wrong tenant or namespace"},
		situations: []string{"fresh environments where bootstrap has not run", "scripts that hard-code {S} names across environments", "replaying old requests after a retention sweep"},
		solutions:  []string{"List the existing objects with `{cli} {S} ls` and check the exact name.", "Create the {S} first, or enable `{cfg}` so it is provisioned on demand.", "Make the caller treat a missing {S} as a normal, recoverable result.", "Check that the request carries the right tenant before the lookup."},
		tips:       []string{"Declare every {S} in the bootstrap manifest instead of creating it lazily.", "Validate names against the catalog at deploy time.", "Prefer IDs over free-form names in automation."},
	},
	famConflict: {
		doc:        []string{"Writes are guarded by revision checks, so two writers racing on one {S} cannot both succeed.", "The losing writer gets `{code}` and must re-read before retrying."},
		causes:     []string{"two workers update the same {S} at the same time", "a retry re-sends a create that already succeeded", "a stale cached revision is used for a conditional write", "a lock holder crashed without releasing the {S}"},
		situations: []string{"horizontally scaled workers without partitioning", "at-least-once delivery re-running a create", "long pauses (GC, swapping) that outlive a lease"},
		solutions:  []string{"Re-read the {S}, re-apply the change and retry with the fresh revision.", "Make create idempotent: treat `{code}` on create as success if the content matches.", "Partition work so each {S} has a single writer.", "Inspect holders with `{cli} {S} locks` and release orphaned ones."},
		tips:       []string{"Always send the expected revision on updates.", "Use idempotency keys for create calls that may be retried.", "Keep critical sections short and bounded by a lease."},
	},
	famTimeout: {
		doc:        []string{"The wait is bounded by `{cfg}`; when it elapses the operation is abandoned, not rolled back.", "The {S} may still complete later, so callers must not assume it failed."},
		causes:     []string{"the {S} backend is overloaded or paused", "network partitions between the client and the {S} owner", "a deadline that is shorter than the slowest normal response", "large payloads that take longer than the configured timeout"},
		situations: []string{"traffic spikes after a deploy", "cross-region calls with high latency", "cold starts right after a restart"},
		solutions:  []string{"Raise `{cfg}` to cover the p99 latency of the {S} backend.", "Retry with exponential backoff and jitter, keeping the operation idempotent.", "Check backend health and saturation before increasing timeouts.", "Split large requests so each finishes well within the deadline."},
		tips:       []string{"Propagate deadlines end to end instead of stacking timeouts.", "Alert on latency percentiles, not only on errors.", "Make every retried operation idempotent."},
	},
	famLimit: {
		doc:        []string{"Limits protect shared capacity and are enforced before any work is done.", "The current limit is reported in the error and configured with `{cfg}`."},
		causes:     []string{"a client sends more {Sp} than the configured limit allows", "a burst of requests exceeds the per-account rate", "payload sizes grew past the maximum", "a runaway loop creates {Sp} without cleanup"},
		situations: []string{"batch imports and backfills", "misbehaving clients retrying without backoff", "tenants that outgrew the default plan"},
		solutions:  []string{"Honor the retry-after hint and back off before sending more requests.", "Raise `{cfg}` if the higher usage is expected and capacity allows it.", "Batch or paginate work so each request stays under the limit.", "Delete unused {Sp} to free capacity."},
		tips:       []string{"Track usage against limits and alert at 80%.", "Use client-side rate limiting that mirrors the server limits.", "Document limits next to the API that enforces them."},
	},
	famValidation: {
		doc:        []string{"Input is validated before anything is persisted, so no partial {S} is left behind.", "The error names the offending field to make the fix obvious."},
		causes:     []string{"a required {S} field is empty or has the wrong type", "a config file written for another version", "user input passed through without validation", "an encoder producing a non-canonical form"},
		situations: []string{"hand-edited configuration files", "clients built against an older schema", "imports from third-party tools"},
		solutions:  []string{"Fix the field named in the message and resubmit the {S}.", "Run `{cli} {S} validate` locally before applying changes.", "Regenerate the {S} from the current schema instead of editing by hand.", "Add the same validation to the client so bad input never leaves it."},
		tips:       []string{"Validate {S} definitions in CI.", "Publish the schema and generate clients from it.", "Reject unknown fields instead of ignoring them."},
	},
	famAuth: {
		doc:        []string{"Authorization is checked for every {S} operation; there is no implicit access.", "Credentials are never logged, so the error only names the principal."},
		causes:     []string{"the caller's role lacks the permission for this {S} action", "a credential expired or was rotated", "clock skew makes a valid token look expired", "a request is signed with the wrong key"},
		situations: []string{"key rotation windows", "new services deployed without a role binding", "hosts with drifting clocks"},
		solutions:  []string{"Grant the missing permission with `{cli} role grant` and retry.", "Refresh the credential and make the client renew it before expiry.", "Synchronize clocks with NTP on the affected hosts.", "Verify the signing key matches the one registered for the {S}."},
		tips:       []string{"Automate credential renewal well before expiry.", "Apply least-privilege roles per service.", "Monitor clock offset on every host."},
	},
	famUnavailable: {
		doc:        []string{"The {S} cannot serve requests until it regains a healthy owner.", "Requests are rejected quickly instead of queueing, so callers can fail over."},
		causes:     []string{"the node owning the {S} is down or restarting", "the cluster lost quorum", "a failover is in progress", "a dependency of the {S} is unreachable"},
		situations: []string{"rolling upgrades", "maintenance that takes down a majority of nodes", "network partitions between zones"},
		solutions:  []string{"Restore the failed nodes and wait for the {S} to come back online.", "Retry with backoff once `{cli} {S} status` reports healthy.", "Fail over to a replica if the primary stays down.", "Check the dependency named in the reason and fix it first."},
		tips:       []string{"Keep a quorum available during maintenance.", "Use circuit breakers around calls to the {S}.", "Run at least three replicas across zones."},
	},
	famIntegrity: {
		doc:        []string{"Data is verified on read; a mismatch means the stored bytes differ from what was written.", "Serving corrupt data is never attempted."},
		causes:     []string{"a partial write after a crash or power loss", "disk or memory faults flipping bits", "two writers interleaving output to one {S}", "mismatched encoder and decoder versions"},
		situations: []string{"unclean shutdowns", "aging hardware", "copying files between hosts with non-atomic tools"},
		solutions:  []string{"Restore the {S} from the last good snapshot or a healthy replica.", "Run `{cli} {S} repair` to drop the damaged tail.", "Check hardware health (SMART, ECC logs) on the affected host.", "Make sure only one process writes to the {S}."},
		tips:       []string{"Write to a temp file and rename atomically.", "Keep checksums end to end and verify on restore.", "Test restores regularly, not only backups."},
	},
	famState: {
		doc:        []string{"Each {S} follows a small state machine and rejects operations that do not fit its state.", "The current state is included in the error."},
		causes:     []string{"the {S} is used before initialization finished", "the {S} was closed or deleted by another caller", "an operation arrives out of order", "a restart reset in-memory state"},
		situations: []string{"startup races", "shutdown paths that keep using resources", "async callbacks firing late"},
		solutions:  []string{"Wait for the ready signal before using the {S}.", "Re-open or re-create the {S} instead of reusing a closed handle.", "Serialize operations on the {S} through one owner.", "Inspect the state with `{cli} {S} describe` and act on it."},
		tips:       []string{"Tie {S} lifetimes to a clear owner.", "Expose readiness and gate traffic on it.", "Cancel callbacks when the {S} closes."},
	},
	famIO: {
		doc:        []string{"The error wraps the underlying operating system error.", "Nothing is acknowledged to the client until the write is durable."},
		causes:     []string{"the volume holding the {S} is full", "file permissions changed under the process", "the storage device is failing", "a network filesystem became unreachable"},
		situations: []string{"log or snapshot growth without retention", "containers with small ephemeral disks", "remounts during maintenance"},
		solutions:  []string{"Free space or grow the volume, then retry the {S} write.", "Set retention with `{cfg}` so old data is pruned.", "Fix ownership and permissions of the data directory.", "Move the data directory to local, reliable storage."},
		tips:       []string{"Alert on free disk space before it runs out.", "Keep data on dedicated volumes.", "Test behavior on full disks in staging."},
	},
	famCompat: {
		doc:        []string{"Formats and APIs are versioned; only a window of versions is accepted.", "Upgrading one side without the other is the usual trigger."},
		causes:     []string{"a client newer or older than the supported window", "data written by a newer release read by an older one", "a deprecated option still used in config", "a downgrade after a format change"},
		situations: []string{"partial upgrades", "pinned client libraries", "restoring backups into older releases"},
		solutions:  []string{"Upgrade the lagging component so both sides share a supported version.", "Replace the deprecated option as suggested in the message.", "Migrate stored {Sp} with `{cli} {S} migrate`.", "Avoid downgrades after format changes; roll forward instead."},
		tips:       []string{"Read the upgrade notes before each release.", "Upgrade servers before clients.", "Run deprecation warnings as errors in CI."},
	},
	famResource: {
		doc:        []string{"Shared resources are pooled and bounded; running out is reported instead of blocking forever.", "The pool size is configured with `{cfg}`."},
		causes:     []string{"{Sp} are acquired but never released", "lock ordering differs between two code paths", "the pool is sized below peak concurrency", "slow consumers hold {Sp} for too long"},
		situations: []string{"error paths that skip cleanup", "sudden concurrency increases", "long-running transactions"},
		solutions:  []string{"Release every {S} in a deferred or finally block.", "Raise `{cfg}` to match peak concurrency.", "Acquire locks in one global order to avoid cycles.", "Add timeouts so stuck holders give {Sp} back."},
		tips:       []string{"Track pool usage and wait time as metrics.", "Run with the leak detector in tests.", "Keep lock ordering documented."},
	},
}

// genericSolutions and genericTips top up family lists with advice that
// fits any error.
var genericSolutions = []string{
	"Enable debug logging with `{cli} --log-level=debug` and reproduce the failure.",
	"Check the server logs around the time of the error for the root cause.",
	"Upgrade to the latest patch release; several related fixes shipped recently.",
	"Match on the error code `{code}` rather than on the message text.",
	"Add a regression test that reproduces the failure before fixing it.",
	"Wrap the call in `{fn}` with context so the failing {S} is visible in logs.",
}

var genericTips = []string{
	"Handle `{code}` explicitly instead of logging and continuing.",
	"Surface the {S} name in error messages and metrics.",
	"Cover this path in integration tests.",
	"Add a dashboard panel for the rate of `{code}`.",
	"Keep runbooks next to the alert that links them.",
}
