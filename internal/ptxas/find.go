// find.go implements locating the ptxas binary: the FUSEFLOW_PTXAS
// environment variable, the project's cache, then PATH.

package ptxas

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/fuseflow/fuseflow/internal/config"
)

// Environment variables read by this package (through internal/config).
const (
	// EnvPath names a ptxas binary to use instead of the cache or PATH.
	EnvPath = config.PTXAS
	// EnvCache is the root of the project's cache folder.
	EnvCache = config.Cache
	// EnvRequire, a switch, makes Require fail a test instead of skipping
	// it when ptxas cannot be found.
	EnvRequire = config.RequirePTXAS
)

// FetchHint says how to make ptxas available; it ends every ErrNotFound.
const FetchHint = "run scripts/fetch-ptxas.sh from the repository root to fetch it, or set " +
	EnvPath + " to a ptxas binary"

// ErrNotFound is wrapped by the errors of Find when no usable ptxas exists.
var ErrNotFound = errors.New("ptxas not found")

// versionTimeout bounds `ptxas --version`, which answers in milliseconds.
const versionTimeout = 30 * time.Second

// CachePath returns where scripts/fetch-ptxas.sh keeps ptxas:
// $FUSEFLOW_CACHE/cuda-11.8/ptxas, where FUSEFLOW_CACHE defaults to
// $XDG_CACHE_HOME/fuseflow and XDG_CACHE_HOME to $HOME/.cache. It does not
// check that the file exists. It returns an error only when none of
// FUSEFLOW_CACHE, XDG_CACHE_HOME and HOME is set.
func CachePath() (string, error) {
	root := config.Value(EnvCache)
	if root == "" {
		base := os.Getenv("XDG_CACHE_HOME")
		if base == "" {
			home := os.Getenv("HOME")
			if home == "" {
				return "", fmt.Errorf("ptxas cache: none of %s, XDG_CACHE_HOME and HOME is set", EnvCache)
			}
			base = filepath.Join(home, ".cache")
		}
		root = filepath.Join(base, "fuseflow")
	}
	return filepath.Join(root, "cuda-11.8", "ptxas"), nil
}

// Find returns the path of the ptxas binary to use: the one FUSEFLOW_PTXAS
// names (a path, or a name looked up on PATH), else the cached one at
// CachePath, else ptxas on PATH. When FUSEFLOW_PTXAS is set and names no
// executable, Find fails rather than fall back, so a wrong setting is never
// silently ignored. Errors wrap ErrNotFound and end with FetchHint. Find
// does not run the binary (see Version). It is safe for concurrent use.
func Find() (string, error) {
	if p := config.Value(EnvPath); p != "" {
		found, err := exec.LookPath(p)
		if err != nil {
			return "", fmt.Errorf("%w: %s=%q is not an executable file (%v); %s",
				ErrNotFound, EnvPath, p, unwrapPathError(err), FetchHint)
		}
		return found, nil
	}
	cache, cacheErr := CachePath()
	if cacheErr == nil {
		if _, err := exec.LookPath(cache); err == nil {
			return cache, nil
		}
	}
	if p, err := exec.LookPath("ptxas"); err == nil {
		return p, nil
	}
	where := "not in the cache (" + cache + ")"
	if cacheErr != nil {
		where = cacheErr.Error()
	}
	return "", fmt.Errorf("%w: %s is unset, %s and not on PATH; %s", ErrNotFound, EnvPath, where, FetchHint)
}

// Version runs `ptxas --version` at path and returns its release line, for
// example "Cuda compilation tools, release 11.8, V11.8.89" (its last line
// when there is none). An error says why the binary did not run, with its
// output. It is safe for concurrent use.
func Version(path string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), versionTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").CombinedOutput()
	text := strings.TrimSpace(string(out))
	if err != nil {
		return "", fmt.Errorf("ptxas: %s --version: %v: %s", path, err, text)
	}
	lines := strings.Split(text, "\n")
	for _, l := range lines {
		if strings.Contains(l, "release ") {
			return strings.TrimSpace(l), nil
		}
	}
	if text == "" {
		return "", fmt.Errorf("ptxas: %s --version printed nothing", path)
	}
	return strings.TrimSpace(lines[len(lines)-1]), nil
}

// unwrapPathError drops the repeated file name from exec's errors.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err
	}
	return err
}
