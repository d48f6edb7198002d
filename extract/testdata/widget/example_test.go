package widget_test

import (
	"errors"
	"fmt"
)

func ExampleAssemble() {
	fmt.Println(errors.New("widget: an example's own error"))
	// Output: widget: an example's own error
}
