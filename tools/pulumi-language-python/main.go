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
// It implements what running a program needs (Run, InstallDependencies, GetPluginInfo) and
// reports no required plugins. SDK generation (`pulumi package gen-sdk --language python`; use
// tools/sdkgen), Python plugins and policy packs, program generation and `pulumi about` details
// are left unimplemented, which the CLI tolerates.
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
	// runner is the path of pulumi-language-python-exec.
	runner string
}

func main() {
	engine := engineAddress(os.Args[1:])
	runner, err := findRunner()
	if err != nil {
		fatal(err)
	}
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
			pulumirpc.RegisterLanguageRuntimeServer(srv, &host{engine: engine, runner: runner})
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
	fmt.Fprintf(os.Stderr, "pulumi-language-python: %v\n", err)
	os.Exit(1)
}
