package errlink_test

import (
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/errkb/errkb/errlink"
)

// ErrConsumerOffline is a sentinel error a service returns.
var ErrConsumerOffline = errors.New("consumer is offline")

// apiError is an error that carries the code the server answered.
type apiError struct{ code, msg string }

func (e *apiError) Error() string     { return e.msg }
func (e *apiError) ErrorCode() string { return e.code }

func Example() {
	kb := errlink.New("https://errkb.example.com")
	kb.Register(ErrConsumerOffline, kb.PageURL("nats-io/nats-server", "js-consumer-offline"))

	// Logs: every record carrying a known error gains error_url.
	log := slog.New(kb.Handler(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{ReplaceAttr: dropTime})))
	err := fmt.Errorf("fetch orders: %w", ErrConsumerOffline)
	log.Error("fetch failed", "err", err)

	// Errors: the message carries the link.
	fmt.Println(kb.Wrap(err))
	// Output:
	// level=ERROR msg="fetch failed" err="fetch orders: consumer is offline" error_url=https://errkb.example.com/errors/nats-io/nats-server/js-consumer-offline
	// fetch orders: consumer is offline (see https://errkb.example.com/errors/nats-io/nats-server/js-consumer-offline)
}

func ExampleKB_LookupURL() {
	kb := errlink.New("https://errkb.example.com/")
	fmt.Println(kb.LookupURL("JS_CONSUMER_OFFLINE"))
	fmt.Println(kb.LookupURL("nats: consumer is offline"))
	// Output:
	// https://errkb.example.com/lookup?q=JS_CONSUMER_OFFLINE
	// https://errkb.example.com/lookup?q=nats%3A+consumer+is+offline
}

func ExampleKB_PageURL() {
	kb := errlink.New("https://docs.example.com/kb")
	fmt.Println(kb.PageURL("nats-io/nats-server", "js-consumer-offline"))
	// Output:
	// https://docs.example.com/kb/errors/nats-io/nats-server/js-consumer-offline
}

// An error that carries its own code links to the lookup of that code,
// with no registration.
func ExampleKB_Handler() {
	kb := errlink.New("https://errkb.example.com")
	log := slog.New(kb.Handler(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{ReplaceAttr: dropTime})))
	log.Warn("publish refused", "err", &apiError{code: "JS_STREAM_NOT_FOUND", msg: "stream not found"})
	log.Info("published", "subject", "orders.new") // no error, no link
	// Output:
	// {"level":"WARN","msg":"publish refused","err":"stream not found","error_url":"https://errkb.example.com/lookup?q=JS_STREAM_NOT_FOUND"}
	// {"level":"INFO","msg":"published","subject":"orders.new"}
}

func ExampleKB_Wrap() {
	kb := errlink.New("https://errkb.example.com")
	kb.Register(ErrConsumerOffline, kb.LookupURL("JS_CONSUMER_OFFLINE"))
	err := kb.Wrap(fmt.Errorf("fetch: %w", ErrConsumerOffline))
	fmt.Println(err)
	fmt.Println(errors.Is(err, ErrConsumerOffline))
	var le *errlink.LinkedError
	if errors.As(err, &le) {
		fmt.Println(le.URL)
	}
	// Output:
	// fetch: consumer is offline (see https://errkb.example.com/lookup?q=JS_CONSUMER_OFFLINE)
	// true
	// https://errkb.example.com/lookup?q=JS_CONSUMER_OFFLINE
}

// dropTime leaves the time out so the examples' output is fixed.
func dropTime(groups []string, a slog.Attr) slog.Attr {
	if a.Key == slog.TimeKey && len(groups) == 0 {
		return slog.Attr{}
	}
	return a
}
