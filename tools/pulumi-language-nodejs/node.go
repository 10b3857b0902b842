package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
)

// findNode returns the `node` that runs programs, plugins and policy packs: the first on PATH,
// as with Pulumi's own host. Whoever starts the CLI chooses the Node.js version through PATH
// (the e2e tests put the directory of their own node first).
func findNode() (string, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return "", fmt.Errorf("could not find node on PATH: %w", err)
	}
	return node, nil
}

// resolveModule finds module as Node.js would from dir (in node_modules of dir or of a parent),
// so that the copy of @pulumi/pulumi installed for the program is the one that runs it.
func resolveModule(node, dir, module string) (string, error) {
	cmd := exec.Command(node, "-e", "process.stdout.write(require.resolve(process.argv[1]))", module)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil || len(out) == 0 {
		return "", fmt.Errorf("cannot find %s from %s: it looks like the Pulumi SDK is not installed; "+
			"have you run `npm install`?", module, dir)
	}
	return string(out), nil
}

// jsonString encodes the config maps and key lists that travel in environment variables.
func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // maps of strings and string slices always marshal
	}
	return string(b)
}

// exitError describes a failed node process the way the CLI shows it to the user.
func exitError(err error) error {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return fmt.Errorf("Program exited with non-zero exit code: %d", exit.ExitCode())
	}
	return fmt.Errorf("Problem executing program (could not run node): %w", err)
}

// wrapped hides the file descriptor of os.Stdout or os.Stderr from exec, so node writes to a
// pipe copied by Go rather than to our own stdout: node may switch a descriptor it is handed to
// non-blocking mode, which would make later writes from Go fail with EAGAIN.
func wrapped(w io.Writer) io.Writer { return struct{ io.Writer }{w} }
