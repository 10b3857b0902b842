// Command pulumi-language-go is the Pulumi CLI's language host for Go programs, as built by
// pulumi-managed-db's scripts/ensure-pulumi.
//
// Pulumi's own host lives in a Go module (sdk/go/pulumi-language-go) that the module proxy does not
// serve, so this small one stands in for it, for the tests of Go programs. It builds the program
// with the `go` on PATH (`go build` in the program's directory, honouring GOFLAGS and the rest of
// the go command's environment), or runs the prebuilt executable the `binary` runtime option names,
// with the variables through which Pulumi's Go SDK finds the engine, the stack and its
// configuration.
//
// It implements what running a program needs (Run; GetPluginInfo and no required plugins from
// ../host). `pulumi install`, SDK generation (use tools/sdkgen), Go plugins and policy packs,
// program generation and `pulumi about` details are left unimplemented, which the CLI tolerates.
package main

import (
	"os"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"pulumi-managed-db/tools/langhosts/host"
)

// name is this host's, in the messages of a failed start.
const name = "pulumi-language-go"

// goHost serves the LanguageRuntime service for one CLI process.
type goHost struct {
	host.Base
}

func main() {
	host.Serve(name, os.Args[1:], func(engine string) pulumirpc.LanguageRuntimeServer {
		return &goHost{Base: host.Base{Engine: engine}}
	})
}
