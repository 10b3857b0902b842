package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"pulumi-managed-db/tools/langhosts/host"
)

// runnerName is Pulumi's script that runs a Python program under the engine.
const runnerName = "pulumi-language-python-exec"

// findRunner finds pulumi-language-python-exec beside this executable (symlinks followed: the
// CLI's bin dir links to the cached build), else on PATH.
func findRunner() (string, error) {
	if self, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			candidate := filepath.Join(filepath.Dir(real), runnerName)
			if _, err := os.Stat(candidate); err == nil {
				return candidate, nil
			}
		}
	}
	if path, err := exec.LookPath(runnerName); err == nil {
		return path, nil
	}
	return "", fmt.Errorf("%s is neither beside this executable nor on PATH (scripts/ensure-pulumi puts it there)",
		runnerName)
}

// runArgs builds python's arguments that run the program of req with runner: `-u <runner>` and the
// flags the runner reads, then the program (a directory runs its __main__.py) and its arguments.
func runArgs(req *pulumirpc.RunRequest, engine, runner string) []string {
	info := req.GetInfo()
	dir := host.ProgramDir(req)
	pwd := req.GetPwd()
	if pwd == "" {
		pwd = dir
	}
	program := info.GetEntryPoint()
	if program == "" {
		program = req.GetProgram()
	}
	if program == "" {
		program = "."
	}
	if !filepath.IsAbs(program) {
		program = filepath.Join(dir, program)
	}
	args := []string{"-u", runner}
	flag := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name, value)
		}
	}
	flag("monitor", req.GetMonitorAddress())
	flag("engine", engine)
	flag("organization", req.GetOrganization())
	flag("project", req.GetProject())
	flag("stack", req.GetStack())
	flag("pwd", pwd)
	flag("root_directory", info.GetRootDirectory())
	flag("parallel", strconv.Itoa(int(req.GetParallel())))
	flag("dry_run", strconv.FormatBool(req.GetDryRun()))
	return append(append(args, program), req.GetArgs()...)
}

// Run runs a Pulumi program: `python -u pulumi-language-python-exec --monitor ... <program>`, with
// the python of the program's toolchain (its virtualenv's, when it names one).
func (h *pythonHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	tc, err := toolchainOf(req.GetInfo())
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	if err := tc.ValidateVenv(ctx); err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	cmd, err := tc.Command(ctx, runArgs(req, h.Engine, h.runner)...)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	cmd.Dir = req.GetPwd()
	if cmd.Dir == "" {
		cmd.Dir = host.ProgramDir(req)
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, host.ConfigEnv(req)...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return host.RunResponse(cmd.Run(), "python"), nil
}
