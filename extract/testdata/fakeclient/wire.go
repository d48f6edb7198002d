package client

import (
	"errors"
	"fmt"
	"io"
	"log"
)

// ErrBadConfig is returned for a configuration the client cannot use.
var ErrBadConfig = errors.New("client: bad configuration")

// Configure checks a configuration; the widgetctl command exits with
// what it returns.
func Configure(name string) error {
	if name == "" {
		return ErrBadConfig
	}
	return nil
}

// serve answers one request: an error goes back to the peer as a
// protocol error line, never to the caller.
func serve(w io.Writer, req string) {
	if err := handle(req); err != nil {
		sendErr(w, err.Error())
	}
}

func handle(req string) error {
	if req == "" {
		return fmt.Errorf("client: empty request")
	}
	return nil
}

func sendErr(w io.Writer, msg string) {
	fmt.Fprintf(w, "-ERR '%s'\r\n", msg)
}

// flush writes what is pending; a failure is only logged.
func flush(w io.Writer) {
	if err := write(w); err != nil {
		logError(err)
	}
}

func write(w io.Writer) error {
	if w == nil {
		return errors.New("client: nothing to write to")
	}
	return nil
}

func logError(err error) {
	log.Printf("client: %v", err)
}

// Run serves and flushes one request.
func Run(w io.Writer, req string) {
	serve(w, req)
	flush(w)
}

// Check reports what is wrong with a request, logging it on the way.
func Check(req string) error {
	if req == "?" {
		return note(errors.New("client: question mark request"))
	}
	return nil
}

func note(err error) error {
	log.Print(err)
	return err
}
