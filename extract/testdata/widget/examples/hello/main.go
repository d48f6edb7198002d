// Hello shows how to assemble a widget.
package main

import (
	"errors"
	"fmt"
)

func main() {
	fmt.Println(errors.New("hello: the example could not start"))
}
