package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"pulumi-managed-db/tools/langhosts/host"
)

// Run builds the Go program of req (unless its `binary` option names a prebuilt one) and runs it
// under the engine; a build that fails is the run's error, with the compiler's output.
func (h *goHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	program, cleanup, err := programBinary(ctx, req)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	defer cleanup()
	cmd := exec.Command(program, req.GetArgs()...)
	cmd.Dir = req.GetPwd()
	if cmd.Dir == "" {
		cmd.Dir = host.ProgramDir(req)
	}
	cmd.Env = append(os.Environ(), programEnv(req, h.Engine)...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return host.RunResponse(cmd.Run(), program), nil
}

// programBinary is the executable that runs the program of req, and what removes it afterwards: the
// `binary` runtime option's (relative to the program's directory), else a fresh `go build` of the
// entry point (the program's directory by default) into a temporary directory.
func programBinary(ctx context.Context, req *pulumirpc.RunRequest) (string, func(), error) {
	dir := host.ProgramDir(req)
	if binary, ok := req.GetInfo().GetOptions().AsMap()["binary"].(string); ok && binary != "" {
		if !filepath.IsAbs(binary) {
			binary = filepath.Join(dir, binary)
		}
		if _, err := os.Stat(binary); err != nil {
			return "", nil, fmt.Errorf("the program's `binary` option names %s, which cannot be run: %w", binary, err)
		}
		return binary, func() {}, nil
	}
	out, err := os.MkdirTemp("", "pulumi-go-program-")
	if err != nil {
		return "", nil, fmt.Errorf("making a folder for the program's build: %w", err)
	}
	cleanup := func() { _ = os.RemoveAll(out) }
	binary := filepath.Join(out, "program")
	cmd := exec.CommandContext(ctx, "go", buildArgs(req.GetInfo().GetEntryPoint(), binary)...)
	cmd.Dir = dir
	if output, err := cmd.CombinedOutput(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("building the Go program in %s failed (%v):\n%s", dir, err,
			strings.TrimRight(string(output), "\n"))
	}
	return binary, cleanup, nil
}

// buildArgs are the go command's arguments that build the package at entry (relative to the
// program's directory; "" or "." is the directory itself) into binary.
func buildArgs(entry, binary string) []string {
	if entry == "" {
		entry = "."
	}
	if entry != "." && !filepath.IsAbs(entry) && !strings.HasPrefix(entry, "./") {
		entry = "./" + entry
	}
	return []string{"build", "-o", binary, entry}
}

// programEnv holds the variables Pulumi's Go SDK reads (pulumi.Run): where the engine and its
// resource monitor are, the organization, project, stack and root directory, the parallelism,
// whether this is a preview, and the configuration.
func programEnv(req *pulumirpc.RunRequest, engine string) []string {
	env := []string{
		"PULUMI_MONITOR=" + req.GetMonitorAddress(),
		"PULUMI_ENGINE=" + engine,
		"PULUMI_ORGANIZATION=" + req.GetOrganization(),
		"PULUMI_PROJECT=" + req.GetProject(),
		"PULUMI_STACK=" + req.GetStack(),
		"PULUMI_ROOT_DIRECTORY=" + req.GetInfo().GetRootDirectory(),
		"PULUMI_PARALLEL=" + strconv.Itoa(int(req.GetParallel())),
		"PULUMI_DRY_RUN=" + strconv.FormatBool(req.GetDryRun()),
	}
	return append(env, host.ConfigEnv(req)...)
}
