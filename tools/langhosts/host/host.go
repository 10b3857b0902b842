// Package host is what the language hosts of this module share: serving Pulumi's LanguageRuntime
// service to one CLI process, the engine's address from the command line, the variables that carry
// the stack's configuration to a program, the answers that need no language, and how a program's
// exit becomes the CLI's answer.
package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// ExitAlreadyReported is the exit code with which a program (Pulumi's Go SDK, Pulumi's Python
// runner) says that it has already shown its error to the user.
const ExitAlreadyReported = 32

// Base answers the LanguageRuntime calls that are the same for every language here; a host embeds
// it and adds Run (and what else it implements). The rest are left unimplemented, which the CLI
// tolerates.
type Base struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	// Engine is the address of the CLI's engine, passed on to the programs the host runs.
	Engine string
}

// GetRequiredPlugins reports none: the program's plugins are not discovered ahead of time, the
// engine loads each one when the program first uses it (a local package through Pulumi.yaml's
// `packages:`).
func (Base) GetRequiredPlugins(
	context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

// GetRequiredPackages reports none, for the same reason as GetRequiredPlugins.
func (Base) GetRequiredPackages(
	context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

// GetPluginInfo reports the Pulumi version this host was built against (set at link time).
func (Base) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version.Version}, nil
}

// Serve runs the language host named name for the CLI that started it with args: it serves the
// LanguageRuntime that newServer makes for the engine's address, prints its port as its first line
// of output (which the CLI reads), and exits once the engine has gone away. Failures to start end
// the process with one line naming the host.
func Serve(name string, args []string, newServer func(engine string) pulumirpc.LanguageRuntimeServer) {
	engine := EngineAddress(args)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if engine != "" {
		// Exit when the engine has gone away rather than linger.
		if err := rpcutil.Healthcheck(ctx, engine, 5*time.Minute, cancel); err != nil {
			Fatal(name, fmt.Errorf("could not start health check: %w", err))
		}
	}
	stop := make(chan bool)
	go func() { <-ctx.Done(); close(stop) }()

	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: stop,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, newServer(engine))
			return nil
		},
	})
	if err != nil {
		Fatal(name, fmt.Errorf("could not start the language host's gRPC server: %w", err))
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		Fatal(name, err)
	}
}

// EngineAddress picks the engine's address out of the command line: the CLI passes it as the last
// positional argument. Older CLIs also passed runtime options as -flags; those now arrive in each
// request, so flags are ignored.
func EngineAddress(args []string) string {
	var engine string
	for _, arg := range args {
		if !strings.HasPrefix(arg, "-") {
			engine = arg
		}
	}
	return engine
}

// Fatal ends the host named name with err on one line of stderr.
func Fatal(name string, err error) {
	fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
	os.Exit(1)
}

// ProgramDir is the directory holding the program's Pulumi.yaml (else the working directory).
func ProgramDir(req *pulumirpc.RunRequest) string {
	if dir := req.GetInfo().GetProgramDirectory(); dir != "" {
		return dir
	}
	return req.GetPwd()
}

// ConfigEnv holds the variables through which Pulumi's SDKs read the stack's configuration and
// which of its keys are secret, as JSON.
func ConfigEnv(req *pulumirpc.RunRequest) []string {
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

// jsonString encodes the config maps and key lists that travel in environment variables.
func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // maps of strings and string slices always marshal
	}
	return string(b)
}

// RunResponse turns how a program's process ended into the answer the CLI expects: a bail (no
// further message) when the program already reported its error; what names the command in the
// message of a process that could not start.
func RunResponse(err error, what string) *pulumirpc.RunResponse {
	var exit *exec.ExitError
	switch {
	case err == nil:
		return &pulumirpc.RunResponse{}
	case errors.As(err, &exit) && exit.ExitCode() == ExitAlreadyReported:
		return &pulumirpc.RunResponse{Bail: true}
	case errors.As(err, &exit):
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exit.ExitCode())}
	default:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Problem executing program (could not run %s): %v", what, err)}
	}
}
