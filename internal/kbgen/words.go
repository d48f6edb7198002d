package kbgen

// This file holds the name vocabularies. Every owner and repository name is
// a compound of invented syllables so generated projects are clearly
// fictional and never collide with the names of real projects.

// ownerHeads and ownerTails combine into owner names such as "quartzline".
var ownerHeads = []string{
	"quartz", "ember", "slate", "fern", "cobalt", "harbor", "umber", "willow",
	"basalt", "juniper", "marrow", "tallow", "cinder", "alder", "brindle",
	"copper", "dusk", "flint", "gossamer", "heron", "indigo", "kestrel",
	"larch", "mica", "nettle", "ochre", "pewter", "quill", "russet", "sable",
	"thistle", "vellum", "wren", "yarrow", "zephyr",
}

var ownerTails = []string{
	"line", "loft", "wick", "forge", "yard", "field", "mark", "crest",
	"hollow", "gate", "stead", "moor", "vale", "brook", "ridge", "haven",
	"combe", "fold", "reach", "spire",
}

// repoHeads and repoTails combine into repository names such as "ferrovia".
var repoHeads = []string{
	"ferro", "luma", "vanta", "quil", "osto", "bria", "caldo", "dorn",
	"evra", "fila", "gallo", "hesper", "isto", "jorva", "kelda", "lunet",
	"morra", "nevi", "orla", "pelli", "rasco", "sindra", "tolva", "umbra",
	"velda", "wister", "xanthe", "yorla", "zenna", "arvo",
}

var repoTails = []string{
	"via", "stra", "mere", "dane", "tide", "lith", "vane", "kora", "nell",
	"quay", "rill", "sorn", "tessa", "vik", "wold", "bryn", "cade", "fen",
	"garth", "holm", "ista", "juna", "karn", "lode", "mira",
}

// subjects are the nouns errors are about. Each is a single lower-case word
// so it can be turned into identifiers in every target language.
var subjects = []string{
	"consumer", "stream", "bucket", "snapshot", "ledger", "shard", "tenant",
	"webhook", "manifest", "token", "session", "cursor", "partition",
	"replica", "schema", "migration", "index", "segment", "lease",
	"checkpoint", "pipeline", "artifact", "queue", "worker", "credential",
	"certificate", "channel", "cluster", "node", "volume", "mount", "route",
	"listener", "upstream", "backend", "plugin", "module", "template",
	"asset", "upload", "chunk", "blob", "object", "batch", "job", "task",
	"trigger", "schedule", "invoice", "payment", "account", "quota",
	"policy", "role", "grant", "secret", "keyring", "handshake", "frame",
	"packet", "peer", "election", "journal", "compaction", "tombstone",
	"watermark", "offset", "subscription", "topic", "mailbox",
	"notification", "locale", "bundle", "dependency", "lockfile",
	"registry", "mirror", "revision", "branch", "workspace", "sandbox",
	"container", "layer", "probe", "metric", "span", "alert", "dashboard",
}

// generalTags complete the tag vocabulary; together with the subjects,
// condition slugs and language names they make roughly 200 tags.
var generalTags = []string{
	"network", "storage", "auth", "tls", "dns", "http", "grpc", "sql",
	"cache", "concurrency", "config", "validation", "serialization", "io",
	"filesystem", "memory", "performance", "retry", "backoff", "consistency",
	"replication", "consensus", "scheduling", "billing", "observability",
	"logging", "tracing", "metrics", "security", "crypto", "encoding",
	"compression", "upgrade", "compatibility", "cli", "api", "sdk",
	"deployment", "kubernetes", "container-runtime", "ci", "build",
	"packaging", "dependency-resolution", "rate-limit", "quota-management",
	"multi-tenant", "streaming", "batching", "idempotency", "transactions",
	"locking", "leader-election", "failover", "recovery", "durability",
	"data-loss", "corruption", "migration-path", "schema-evolution",
	"i18n", "permissions", "rbac", "oauth", "session-management",
	"webhooks", "messaging", "pubsub", "queueing", "search", "indexing",
	"time", "clock-skew", "limits", "resource-exhaustion", "startup",
	"shutdown", "hot-path", "user-input", "operator-error",
}

// comments are filler comment lines for source snippets.
var comments = []string{
	"Fast path: nothing to do when the entry is already cached.",
	"Keep the lock scope small; callers may block on the notifier.",
	"The remote side may have restarted, so refresh the view first.",
	"Copy before mutating: the config is shared with the watcher.",
	"Validate early so partial state is never persisted.",
	"Best effort: failures here are reported but not fatal.",
	"Guard against stale reads after a leader change.",
	"Metrics are updated before returning so dashboards stay accurate.",
	"TODO: move this check into the admission layer.",
	"Callers rely on this ordering; see the design notes.",
	"Reuse the buffer to avoid an allocation per iteration.",
	"Normalize names so lookups are case-insensitive.",
}

// verbs and fields name fictional operations and struct fields in snippets.
var verbs = []string{
	"load", "fetch", "resolve", "apply", "sync", "store", "lookup", "open",
	"flush", "attach", "register", "refresh", "commit", "verify", "encode",
}

var fields = []string{
	"name", "state", "revision", "owner", "limit", "size", "epoch",
	"weight", "label", "checksum", "generation", "replica", "priority",
}

// fileStems are appended to the subject to name source files.
var fileStems = []string{
	"", "_store", "_manager", "_api", "_handler", "_sync", "_codec",
}
