package program

import "strings"

// Scaffolding says why a package, by its folder relative to the module's
// root, is not part of what the module ships: "" when it is. The rule,
// one folder name at a time, lower-cased:
//
//   - example, examples: examples (the go command already ignores
//     _examples, testdata and folders starting with "." or "_");
//   - bench, benchmark, benchmarks: benchmark harnesses;
//   - interop: interoperability test clients and servers;
//   - a name that starts with "test" or ends in "test", "tests" or
//     "testing" (test, tests, testutil, testhelper, internal/testenv,
//     servertest, httptest, testing/fstest): test helpers;
//   - a name that starts with "stub", "fake" or "mock" (grpc's
//     internal/stubserver, fakeserver, mocks): test doubles.
//
// Test files (_test.go, including example_test.go and benchmarks) are
// left out by the loader itself. --include-tests brings all of them back.
func Scaffolding(rel string) string {
	if rel == "." || rel == "" {
		return ""
	}
	for _, el := range strings.Split(rel, "/") {
		switch el = strings.ToLower(el); {
		case el == "example" || el == "examples":
			return "examples"
		case el == "bench" || el == "benchmark" || el == "benchmarks":
			return "benchmarks"
		case el == "interop":
			return "interop tests"
		case strings.HasPrefix(el, "test") || strings.HasSuffix(el, "test") ||
			strings.HasSuffix(el, "tests") || strings.HasSuffix(el, "testing"):
			return "test helpers"
		case strings.HasPrefix(el, "stub") || strings.HasPrefix(el, "fake") || strings.HasPrefix(el, "mock"):
			return "test doubles"
		}
	}
	return ""
}

// IsInternal reports a package only its own module can import: one with
// an "internal" folder in its path (the go command's rule).
func IsInternal(rel string) bool {
	for _, el := range strings.Split(rel, "/") {
		if el == "internal" {
			return true
		}
	}
	return false
}
