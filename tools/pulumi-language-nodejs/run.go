package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// Exit code of @pulumi/pulumi's entry points meaning "the error was already shown to the user".
const exitAlreadyReported = 32

// invocation is how to start node for a request: its arguments, working directory and the
// variables to add to the environment.
type invocation struct {
	args []string
	dir  string
	env  []string
}

// Run runs a Pulumi program: `node [nodeargs] <@pulumi/pulumi/cmd/run> --monitor ... <program>`.
func (h *host) Run(_ context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	node, err := findNode()
	if err != nil {
		return nil, err
	}
	script, err := resolveModule(node, programDir(req), "@pulumi/pulumi/cmd/run")
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	inv := runInvocation(req, h.engine, script)
	cmd := exec.Command(node, inv.args...)
	cmd.Dir = inv.dir
	cmd.Env = append(os.Environ(), inv.env...)
	cmd.Stdout, cmd.Stderr = wrapped(os.Stdout), wrapped(os.Stderr)
	return runResponse(cmd.Run()), nil
}

// programDir is the directory holding the program's Pulumi.yaml (else the working directory).
func programDir(req *pulumirpc.RunRequest) string {
	if dir := req.GetInfo().GetProgramDirectory(); dir != "" {
		return dir
	}
	return req.GetPwd()
}

// runInvocation builds the node command line that runs the program of req with script (the
// resolved @pulumi/pulumi/cmd/run), with the flags cmd/run reads and the configuration it takes
// from the environment.
func runInvocation(req *pulumirpc.RunRequest, engine, script string) invocation {
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

	opts := parseOptions(info)
	args := append(append([]string{}, opts.nodeargs...), script)
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
	flag("root-directory", info.GetRootDirectory())
	flag("parallel", strconv.Itoa(int(req.GetParallel())))
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	args = append(append(args, program), req.GetArgs()...)

	config := req.GetConfig()
	if config == nil {
		config = map[string]string{}
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	env := []string{"PULUMI_CONFIG=" + jsonString(config), "PULUMI_CONFIG_SECRET_KEYS=" + jsonString(secretKeys)}
	return invocation{args: args, dir: pwd, env: append(env, opts.env()...)}
}

// runResponse turns how the program's node process ended into the answer the CLI expects: a
// bail (no further message) when the program already reported its error.
func runResponse(err error) *pulumirpc.RunResponse {
	var exit *exec.ExitError
	switch {
	case err == nil:
		return &pulumirpc.RunResponse{}
	case errors.As(err, &exit) && exit.ExitCode() == exitAlreadyReported:
		return &pulumirpc.RunResponse{Bail: true}
	default:
		return &pulumirpc.RunResponse{Error: exitError(err).Error()}
	}
}
