// Command pulumi-language-python is the Pulumi CLI's language host for Python programs, as built
// by pulumi-managed-db's scripts/ensure-pulumi.
//
// Pulumi's own host lives in a Go module (sdk/python/cmd/pulumi-language-python) that has no tags
// and that the module proxy does not serve, so this small one stands in for it. The program is run
// by Pulumi's own runner script, pulumi-language-python-exec, which ships in the
// github.com/pulumi/pulumi/sdk/v3 module at the pinned release: scripts/ensure-pulumi copies it
// beside this executable. The Python found and the virtual environment used are those of the SDK's
// own toolchain package (sdk/v3/python/toolchain), so the runtime options of Pulumi.yaml
// (`virtualenv`, `toolchain`) mean what they mean with Pulumi's host.
//
// It implements what running a program needs (Run, InstallDependencies; GetPluginInfo and no
// required plugins from ../host). SDK generation (`pulumi package gen-sdk --language python`; use
// tools/sdkgen), Python plugins and policy packs, program generation and `pulumi about` details
// are left unimplemented, which the CLI tolerates.
package main

import (
	"os"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"pulumi-managed-db/tools/langhosts/host"
)

// name is this host's, in the messages of a failed start.
const name = "pulumi-language-python"

// pythonHost serves the LanguageRuntime service for one CLI process.
type pythonHost struct {
	host.Base
	// runner is the path of pulumi-language-python-exec.
	runner string
}

func main() {
	runner, err := findRunner()
	if err != nil {
		host.Fatal(name, err)
	}
	host.Serve(name, os.Args[1:], func(engine string) pulumirpc.LanguageRuntimeServer {
		return &pythonHost{Base: host.Base{Engine: engine}, runner: runner}
	})
}
