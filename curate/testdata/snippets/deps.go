// Package snippets keeps every package the dataset's samples may import in
// go.sum, so that the compile test lists and builds them with
// -mod=readonly: the public packages of nats.go, nats-server, jsm.go and
// natscli that define errors in dataset/extracted.
package snippets

import (
	_ "github.com/nats-io/jsm.go"
	_ "github.com/nats-io/jsm.go/api"
	_ "github.com/nats-io/jsm.go/audit/archive"
	_ "github.com/nats-io/jsm.go/backup"
	_ "github.com/nats-io/jsm.go/natscontext"
	_ "github.com/nats-io/jsm.go/serverdata"
	_ "github.com/nats-io/nats-server/v2/conf"
	_ "github.com/nats-io/nats-server/v2/logger"
	_ "github.com/nats-io/nats-server/v2/server"
	_ "github.com/nats-io/nats-server/v2/server/archive"
	_ "github.com/nats-io/nats-server/v2/server/avl"
	_ "github.com/nats-io/nats-server/v2/server/certstore"
	_ "github.com/nats-io/nats-server/v2/server/gsl"
	_ "github.com/nats-io/nats-server/v2/server/pse"
	_ "github.com/nats-io/nats-server/v2/server/thw"
	_ "github.com/nats-io/nats-server/v2/server/tpm"
	_ "github.com/nats-io/nats.go"
	_ "github.com/nats-io/nats.go/encoders/builtin"
	_ "github.com/nats-io/nats.go/encoders/protobuf"
	_ "github.com/nats-io/nats.go/jetstream"
	_ "github.com/nats-io/nats.go/micro"
	_ "github.com/nats-io/natscli/cli"
)
