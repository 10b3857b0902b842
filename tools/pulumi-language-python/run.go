package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// runnerName is Pulumi's script that runs a Python program under the engine.
const runnerName = "pulumi-language-python-exec"

// Exit code of the runner meaning "the error was already shown to the user".
const exitAlreadyReported = 32

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

// programDir is the directory holding the program's Pulumi.yaml (else the working directory).
func programDir(req *pulumirpc.RunRequest) string {
	if dir := req.GetInfo().GetProgramDirectory(); dir != "" {
		return dir
	}
	return req.GetPwd()
}

// runArgs builds python's arguments that run the program of req with runner: `-u <runner>` and the
// flags the runner reads, then the program (a directory runs its __main__.py) and its arguments.
func runArgs(req *pulumirpc.RunRequest, engine, runner string) []string {
	info := req.GetInfo()
	dir := programDir(req)
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

// configEnv holds the variables through which the Python SDK reads the stack's configuration.
func configEnv(req *pulumirpc.RunRequest) []string {
	config := req.GetConfig()
	if config == nil {
		config = map[string]string{}
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	return []string{"PULUMI_CONFIG=" + jsonString(config), "PULUMI_CONFIG_SECRET_KEYS=" + jsonString(secretKeys)}
}

// Run runs a Pulumi program: `python -u pulumi-language-python-exec --monitor ... <program>`, with
// the python of the program's toolchain (its virtualenv's, when it names one).
func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	tc, err := toolchainOf(req.GetInfo())
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	if err := tc.ValidateVenv(ctx); err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	cmd, err := tc.Command(ctx, runArgs(req, h.engine, h.runner)...)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	cmd.Dir = req.GetPwd()
	if cmd.Dir == "" {
		cmd.Dir = programDir(req)
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, configEnv(req)...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return runResponse(cmd.Run()), nil
}

// runResponse turns how the program's python process ended into the answer the CLI expects: a
// bail (no further message) when the program already reported its error.
func runResponse(err error) *pulumirpc.RunResponse {
	var exit *exec.ExitError
	switch {
	case err == nil:
		return &pulumirpc.RunResponse{}
	case errors.As(err, &exit) && exit.ExitCode() == exitAlreadyReported:
		return &pulumirpc.RunResponse{Bail: true}
	case errors.As(err, &exit):
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exit.ExitCode())}
	default:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Problem executing program (could not run python): %v", err)}
	}
}
