// Command widgetctl configures the client and refuses to start on a bad
// configuration.
package main

import (
	"fmt"
	"os"

	client "example.com/acme/fakeclient"
)

func main() {
	if err := client.Configure(os.Getenv("WIDGET")); err != nil {
		die(fmt.Sprintf("widgetctl: %v", err))
	}
}

// die prints msg and ends the process.
func die(msg string) {
	fmt.Fprintln(os.Stderr, msg)
	os.Exit(1)
}
