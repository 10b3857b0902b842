// Command sdkgen-csharp writes the C# SDK of a Pulumi package from its schema with Pulumi's own C#
// generator (github.com/pulumi/pulumi/pkg/v3/codegen/dotnet), what `pulumi package add` does for
// a C# project. Pulumi carried that generator in pkg/v3 up to v3.228.0 and then moved it to
// github.com/pulumi/pulumi-dotnet, which the Go module proxy does not serve; so this module pins
// v3.228.0, apart from sdkgen (which follows the locked release). scripts/ensure-pulumi builds it
// into the bin dir it prints.
//
//	sdkgen-csharp [-schema schema.json] -out DIR
//
// The schema is JSON, read from -schema or from stdin ("-" or no flag); the SDK's files go under
// DIR. The generator fetches the package's logo (the schema's logoUrl, else Pulumi's own on
// GitHub) for the NuGet package: here nothing is fetched and logo.png is written empty, so the
// command works offline.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"

	"github.com/pulumi/pulumi/pkg/v3/codegen/dotnet"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen-csharp: %v\n", err)
		os.Exit(1)
	}
}

// offline answers every HTTP request the generator makes (the logo's) with an empty body.
type offline struct{}

func (offline) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(bytes.NewReader(nil)), Request: req}, nil
}

// run parses args, generates the SDK and writes it, logging one line on stderr.
func run(args []string, stdin io.Reader, stderr io.Writer) error {
	flags := flag.NewFlagSet("sdkgen-csharp", flag.ContinueOnError)
	flags.SetOutput(stderr)
	schemaPath := flags.String("schema", "-", "the package schema (JSON); - for stdin")
	out := flags.String("out", "", "the folder to write the SDK into")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("-out is required")
	}
	var text []byte
	var err error
	if *schemaPath == "-" {
		text, err = io.ReadAll(stdin)
	} else {
		text, err = os.ReadFile(*schemaPath)
	}
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return fmt.Errorf("reading the schema: %w", err)
	}
	pkg, diags, err := schema.BindSpec(spec, nil, schema.ValidationOptions{})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return fmt.Errorf("binding the schema: %s", diags.Error())
	}
	http.DefaultTransport = offline{}
	files, err := dotnet.GeneratePackage("sdkgen-csharp", pkg, nil, nil)
	if err != nil {
		return err
	}
	for name, body := range files {
		path := filepath.Join(*out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, body, 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "sdkgen-csharp: wrote the C# SDK (%d files) to %s\n", len(files), *out)
	return nil
}
