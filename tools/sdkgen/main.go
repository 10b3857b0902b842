// Command sdkgen writes the SDK of a Pulumi package, in one language, from its schema: what
// `pulumi package gen-sdk` does through each language host, done here in-process with Pulumi's
// own generators (github.com/pulumi/pulumi/pkg/v3/codegen/<language>), so that CI can generate
// a Python SDK where no Python language host can be built (the Go module proxy does not serve
// it). scripts/ensure-pulumi builds it into the bin dir it prints.
//
//	sdkgen -language python [-schema schema.json] -out DIR [-version X.Y.Z] [-local]
//
// The schema is JSON, read from -schema or from stdin ("-" or no flag). The SDK's files go under
// DIR itself (gen-sdk would write DIR/<language>). -local makes the SDK `pulumi package add` would
// make: it carries the package's version (else only where the schema's language options set
// respectSchemaVersion), and the Node.js one compiles itself on install.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool is the name the generators write into the files' "do not edit" headers.
const tool = "sdkgen"

// generators are the languages sdkgen writes, by the name `--language` takes in gen-sdk.
var generators = map[string]func(*schema.Package, options) (map[string][]byte, error){
	"nodejs": func(pkg *schema.Package, o options) (map[string][]byte, error) {
		return nodejs.GeneratePackage(tool, pkg, nil, nil, o.local, noLoader{})
	},
	"python": func(pkg *schema.Package, _ options) (map[string][]byte, error) {
		return python.GeneratePackage(tool, pkg, nil, noLoader{})
	},
	"go": func(pkg *schema.Package, _ options) (map[string][]byte, error) {
		return gogen.GeneratePackage(tool, pkg, nil)
	},
}

// options are sdkgen's flags.
type options struct {
	language, schema, out, version string
	local                          bool
}

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
		os.Exit(1)
	}
}

// run parses args, generates the SDK and writes it, logging one line on stderr.
func run(args []string, stdin io.Reader, stderr io.Writer) error {
	opts, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	text, err := readSchema(opts.schema, stdin)
	if err != nil {
		return err
	}
	files, err := generate(text, opts)
	if err != nil {
		return err
	}
	if err := writeFiles(opts.out, files); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "sdkgen: wrote the %s SDK (%d files) to %s\n", opts.language, len(files), opts.out)
	return nil
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("sdkgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.language, "language", "", "the SDK's language: "+strings.Join(languages(), ", "))
	fs.StringVar(&o.schema, "schema", "-", "the package schema (JSON); - reads stdin")
	fs.StringVar(&o.out, "out", "", "the directory to write the SDK's files in")
	fs.StringVar(&o.version, "version", "", "the package version, over the schema's")
	fs.BoolVar(&o.local, "local", false, "the SDK `pulumi package add` makes: versioned; nodejs compiles on install")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	switch {
	case fs.NArg() > 0:
		return o, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	case generators[o.language] == nil:
		return o, fmt.Errorf("-language must be one of %s, not %q", strings.Join(languages(), ", "), o.language)
	case o.out == "":
		return o, errors.New("-out names no directory")
	}
	return o, nil
}

func languages() []string {
	names := make([]string, 0, len(generators))
	for name := range generators {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func readSchema(path string, stdin io.Reader) ([]byte, error) {
	if path == "-" {
		text, err := io.ReadAll(stdin)
		if err != nil {
			return nil, fmt.Errorf("reading the schema from stdin: %w", err)
		}
		return text, nil
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the schema: %w", err)
	}
	return text, nil
}

// generate binds the schema and runs the language's generator. References to types of other
// packages are allowed unresolved, as gen-sdk allows them; a schema that needs another package's
// schema to generate fails, naming it.
func generate(text []byte, o options) (map[string][]byte, error) {
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return nil, fmt.Errorf("the schema is not valid JSON: %w", err)
	}
	pkg, diags, err := schema.BindSpec(spec, noLoader{}, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, fmt.Errorf("binding the schema of %q: %w", spec.Name, err)
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("the schema of %q is invalid: %w", spec.Name, diags)
	}
	if o.version != "" {
		v, err := semver.ParseTolerant(o.version)
		if err != nil {
			return nil, fmt.Errorf("-version %q: %w", o.version, err)
		}
		pkg.Version = &v
	}
	// What `pulumi package add` asks of every generator: write the package's version in the SDK.
	pkg.SupportPack = o.local
	files, err := generators[o.language](pkg, o)
	if err != nil {
		return nil, fmt.Errorf("generating the %s SDK of %q: %w", o.language, pkg.Name, err)
	}
	return files, nil
}

// writeFiles writes generated files (paths relative to dir, with slashes) under dir.
func writeFiles(dir string, files map[string][]byte) error {
	for name, data := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// noLoader loads no package: sdkgen has no plugins to ask for other schemas.
type noLoader struct{}

func (noLoader) err(name string) error {
	return fmt.Errorf("the schema refers to package %q, which sdkgen cannot load", name)
}

func (l noLoader) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, l.err(name)
}

func (l noLoader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, l.err(d.Name)
}

func (l noLoader) LoadPackageReference(name string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, l.err(name)
}

func (l noLoader) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, l.err(d.Name)
}
