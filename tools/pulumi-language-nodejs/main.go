// Command pulumi-language-nodejs is the Pulumi CLI's language host for Node.js programs, as built
// by pulumi-managed-db's scripts/ensure-pulumi.
//
// Pulumi's own host lives in a Go module that has no tags and that the module proxy does not
// serve, so this small one stands in for it. The real work is done by entry points of the
// @pulumi/pulumi npm package installed with the program (cmd/run, cmd/run-policy-pack,
// cmd/run-plugin): this host resolves them from the program's directory and starts them with
// `node`, with the arguments and environment they expect.
//
// It implements what running those needs (Run, RunPlugin, InstallDependencies, GetPluginInfo) and
// reports no required plugins. For local packages (`pulumi package add`, `pulumi package gen-sdk
// --language nodejs`, `pulumi install` of a project's `packages:`) it generates SDKs with Pulumi's
// own Node.js generator and links them into package.json (GeneratePackage, Link: sdk.go), and it
// writes TypeScript programs from PCL with Pulumi's own program generator (GenerateProgram,
// program.go: the code `pulumi import` generates). Pack, `pulumi about` details and the like are
// left unimplemented, which the CLI tolerates.
package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// host serves the LanguageRuntime gRPC service for one CLI process.
type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	// engine is the address of the CLI's engine, passed on to the programs it runs.
	engine string
}

func main() {
	engine := engineAddress(os.Args[1:])
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if engine != "" {
		// Exit when the engine has gone away rather than linger.
		if err := rpcutil.Healthcheck(ctx, engine, 5*time.Minute, cancel); err != nil {
			fatal(fmt.Errorf("could not start health check: %w", err))
		}
	}
	stop := make(chan bool)
	go func() { <-ctx.Done(); close(stop) }()

	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: stop,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, &host{engine: engine})
			return nil
		},
	})
	if err != nil {
		fatal(fmt.Errorf("could not start the language host's gRPC server: %w", err))
	}
	// The CLI reads the port to connect to from our first line of output.
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fatal(err)
	}
}

// engineAddress picks the engine's address out of the command line: the CLI passes it as the
// last positional argument. Older CLIs also passed runtime options as -flags; those now arrive
// in each request, so flags are ignored.
func engineAddress(args []string) string {
	var engine string
	for _, arg := range args {
		if !strings.HasPrefix(arg, "-") {
			engine = arg
		}
	}
	return engine
}

func fatal(err error) {
	fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: %v\n", err)
	os.Exit(1)
}
