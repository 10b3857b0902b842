package main

import (
	"context"
	"encoding/json"
	"fmt"

	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// InstallDependencies backs `pulumi install`: the program's toolchain makes its virtualenv when
// missing and installs requirements.txt (or the pyproject's dependencies) into it.
func (h *host) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer,
) error {
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetDirectory()
	}
	tc, err := toolchainOf(req.GetInfo())
	if err != nil {
		return err
	}
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()
	if err := tc.InstallDependencies(server.Context(), dir, req.GetUseLanguageVersionTools(), true, stdout, stderr); err != nil {
		return fmt.Errorf("installing the Python dependencies in %s: %w", dir, err)
	}
	return closer.Close()
}

// GetRequiredPlugins reports none: the program's plugins are not discovered ahead of time, the
// engine loads each one when the program first uses it (a local package through Pulumi.yaml's
// `packages:`).
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

// jsonString encodes the config maps and key lists that travel in environment variables.
func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // maps of strings and string slices always marshal
	}
	return string(b)
}
