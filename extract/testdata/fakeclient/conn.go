package client

import (
	"errors"
	"log"
)

// conn is a client connection, read as the real server reads one: an
// error of parse is logged, then the connection is closed.
type conn struct{ closed bool }

func (c *conn) parse(frame []byte) error {
	if len(frame) > 64 {
		return errors.New("widget frame is too long")
	}
	return nil
}

// Error logs err for the connection.
func (c *conn) Error(err error) { log.Printf("client error: %v", err) }

func (c *conn) closeConnection() { c.closed = true }

func (c *conn) readLoop(frames [][]byte) {
	for _, f := range frames {
		if err := c.parse(f); err != nil {
			c.Error(err)
			c.closeConnection()
			return
		}
	}
}

// Serve reads a client's frames.
func Serve(frames [][]byte) {
	c := &conn{}
	go c.readLoop(frames)
}
