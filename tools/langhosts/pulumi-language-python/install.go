package main

import (
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// InstallDependencies backs `pulumi install`: the program's toolchain makes its virtualenv when
// missing and installs requirements.txt (or the pyproject's dependencies) into it.
func (h *pythonHost) InstallDependencies(
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
