package extract

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// releaseRE is a Go release as the go command and the golang/go tags
// name it: go1.26.8, go1.21.0, go1.22rc1.
var releaseRE = regexp.MustCompile(`^go1\.[0-9]+(\.[0-9]+|rc[0-9]+)$`)

// stdSource is the standard library: of the local Go when release is "",
// else of that Go release. The go command fetches a release as the
// golang.org/toolchain module from the module proxy, checksum verified
// (GOTOOLCHAIN=release), exactly as it does to switch toolchains; the
// loader then runs that release's go command, so its std is listed with
// its own build constraints.
func stdSource(ctx context.Context, release string) (Source, error) {
	src := "std"
	var env []string
	if release != "" {
		src += "@" + release
		if !releaseRE.MatchString(release) {
			return Source{}, fmt.Errorf("source %s: %q is not a Go release; want std@goX.Y.Z, e.g. std@go1.21.0", src, release)
		}
		env = []string{"GOTOOLCHAIN=" + release}
	}
	out, err := goCmd(ctx, env, "env", "GOROOT", "GOVERSION")
	if err != nil {
		if release != "" {
			return Source{}, fmt.Errorf("source %s: the Go module proxy serves Go releases from go1.21.0 on, as golang.org/toolchain: %w", src, err)
		}
		return Source{}, fmt.Errorf("source %s: %w", src, err)
	}
	goroot, version, _ := strings.Cut(strings.TrimSpace(out), "\n")
	version = strings.TrimSpace(version)
	if release != "" && version != release {
		return Source{}, fmt.Errorf("source %s: the go command ran %s (is GOTOOLCHAIN set in go.env or GOFLAGS?)", src, version)
	}
	o := Origin{Repo: "golang/go", Subdir: "src", Module: "std", Version: version, Time: releaseTime(goroot)}
	if releaseRE.MatchString(version) {
		o.Ref = version // the release's tag
	}
	return Source{Dir: filepath.Join(goroot, "src"), Origin: o, Patterns: []string{"std"}, Env: env, readOnly: true}, nil
}

// releaseTime is the time line of $GOROOT/VERSION ("time 2026-08-28T16:20:06Z"),
// which releases carry since Go 1.21; "" without one.
func releaseTime(goroot string) string {
	data, err := os.ReadFile(filepath.Join(goroot, "VERSION"))
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if t, ok := strings.CutPrefix(sc.Text(), "time "); ok {
			if _, err := time.Parse(time.RFC3339, t); err == nil {
				return t
			}
		}
	}
	return ""
}

// inGoroot reports a folder of the go command's own standard library.
func inGoroot(dir string) bool {
	goroot, err := goEnv("GOROOT")
	if err != nil || goroot == "" {
		return false
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(filepath.Join(goroot, "src"), abs)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// goCmd runs the go command outside any module, so that no go.mod or
// go.work of the current folder chooses its toolchain or modules.
func goCmd(ctx context.Context, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), append([]string{"GOWORK=off"}, env...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("go %s: %s", strings.Join(args, " "), msg)
		}
		return "", fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
	}
	return string(out), nil
}
