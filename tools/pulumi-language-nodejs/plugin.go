package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"

	"google.golang.org/protobuf/types/known/emptypb"

	sdk "github.com/pulumi/pulumi/sdk/v3"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// pluginModule is the @pulumi/pulumi entry point that runs a plugin of the given kind: policy
// packs ("analyzer") have their own.
func pluginModule(kind string) string {
	if kind == "analyzer" {
		return "@pulumi/pulumi/cmd/run-policy-pack"
	}
	return "@pulumi/pulumi/cmd/run-plugin"
}

// pluginArgs builds node's arguments for RunPlugin: run-policy-pack takes <engine address>
// <policy pack directory>, run-plugin takes <plugin directory> then the plugin's own arguments.
func pluginArgs(req *pulumirpc.RunPluginRequest, script string) []string {
	dir := req.GetInfo().GetProgramDirectory()
	args := append(append([]string{}, parseOptions(req.GetInfo()).nodeargs...), script)
	if req.GetKind() == "analyzer" {
		return append(append(args, req.GetArgs()...), dir)
	}
	return append(append(args, dir), req.GetArgs()...)
}

// RunPlugin runs a policy pack (kind "analyzer") or a plugin written in Node.js, streaming its
// output back to the CLI.
func (h *host) RunPlugin(req *pulumirpc.RunPluginRequest, server pulumirpc.LanguageRuntime_RunPluginServer) error {
	ctx := server.Context()
	node, err := findNode()
	if err != nil {
		return err
	}
	info := req.GetInfo()
	dir := info.GetProgramDirectory()
	if dir == "" {
		return errors.New("RunPlugin: the request names no program directory")
	}
	script, err := resolveModule(node, dir, pluginModule(req.GetKind()))
	if err != nil {
		return err
	}

	closer, stdout, stderr, err := rpcutil.MakeRunPluginStreams(server, false)
	if err != nil {
		return err
	}
	defer closer.Close()

	env := req.GetEnv()
	if len(env) == 0 {
		env = os.Environ()
	}
	env = append(env, parseOptions(info).env()...)

	cmd := exec.CommandContext(ctx, node, pluginArgs(req, script)...)
	cmd.Stderr = stderr
	if req.GetKind() != "analyzer" {
		cmd.Dir = req.GetPwd()
		cmd.Env = env
		cmd.Stdout = stdout
		if err := cmd.Run(); err != nil {
			return exitError(err)
		}
		return closer.Close()
	}

	// Policy packs run in their own directory. Packs built with older @pulumi/policy releases read
	// the stack's organization, project, stack and configuration from environment variables when
	// they start, while the engine sends those over gRPC once the analyzer is up: the SDK's
	// PolicyProxy answers the engine first, then starts the pack with that environment and relays.
	cmd.Dir = dir
	proxy, packStdout, err := sdk.NewPolicyProxy(ctx, stdout)
	if err != nil {
		return fmt.Errorf("could not start the policy pack proxy: %w", err)
	}
	stack, err := proxy.AwaitConfiguration(ctx)
	if err != nil {
		return fmt.Errorf("could not get the stack's configuration: %w", err)
	}
	cmd.Env = append(env, stackEnv(stack)...)
	cmd.Stdout = packStdout
	if err := cmd.Start(); err != nil {
		return exitError(err)
	}
	// Attach waits for the pack to exit.
	if err := proxy.Attach(ctx, cmd); err != nil {
		return exitError(err)
	}
	return closer.Close()
}

// stackEnv holds the variables through which a policy pack reads the stack it analyses.
func stackEnv(stack *pulumirpc.AnalyzerStackConfigureRequest) []string {
	var env []string
	set := func(name, value string) {
		if value != "" {
			env = append(env, name+"="+value)
		}
	}
	if stack == nil {
		return env
	}
	set("PULUMI_NODEJS_ORGANIZATION", stack.GetOrganization())
	set("PULUMI_NODEJS_PROJECT", stack.GetProject())
	set("PULUMI_NODEJS_STACK", stack.GetStack())
	set("PULUMI_NODEJS_DRY_RUN", strconv.FormatBool(stack.GetDryRun()))
	if stack.GetConfig() != nil {
		set("PULUMI_CONFIG", jsonString(stack.GetConfig()))
	}
	return env
}

// InstallDependencies backs `pulumi install`: it runs `<package manager> install` in the program's
// directory.
func (h *host) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer,
) error {
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetDirectory()
	}
	pm := parseOptions(req.GetInfo()).packagemanager
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()
	fmt.Fprintf(stdout, "Installing dependencies with `%s install` in %s\n", pm, dir)
	cmd := exec.Command(pm, "install")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("`%s install` failed: %w", pm, err)
	}
	return closer.Close()
}

// GetRequiredPlugins reports none: the program's plugins are not discovered ahead of time, the
// engine loads each one when the program first uses it (pulumi-resource-pulumi-nodejs for
// dynamic resources).
func (h *host) GetRequiredPlugins(
	context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

// GetRequiredPackages reports none, for the same reason as GetRequiredPlugins.
func (h *host) GetRequiredPackages(
	context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

// GetPluginInfo reports the Pulumi version this host was built against (set at link time).
func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version.Version}, nil
}
