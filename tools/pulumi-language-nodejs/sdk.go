package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver"
	"github.com/hashicorp/hcl/v2"

	"github.com/pulumi/pulumi/pkg/v3/codegen/cgstrings"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/pkg/v3/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// The SDK side of the host, behind `pulumi package add`, `pulumi package gen-sdk --language nodejs`
// and `pulumi install` of a project's `packages:`: GeneratePackage writes a package's Node.js SDK
// with Pulumi's own generator (pkg/v3/codegen/nodejs), and Link makes a program depend on such an
// SDK. The CLI installs the program's dependencies afterwards through InstallDependencies.

// GeneratePackage writes the Node.js SDK of the package whose schema the request carries into
// the request's directory. A local SDK (`package add`, `pulumi install`) is TypeScript that its
// postinstall script compiles; a published one is the npm package layout. Schema errors come back
// as diagnostics, as the CLI expects.
func (h *host) GeneratePackage(
	ctx context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	if req.GetDirectory() == "" {
		return nil, errors.New("GeneratePackage: the request names no directory")
	}
	loader, closeLoader, err := engineLoader(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer closeLoader()

	pkg, diags, err := bindSchema(req.GetSchema(), loader)
	if err != nil {
		return nil, err
	}
	resp := &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}
	if diags.HasErrors() {
		return resp, nil
	}
	files, err := nodejs.GeneratePackage("pulumi-language-nodejs", pkg, req.GetExtraFiles(),
		req.GetLocalDependencies(), req.GetLocal(), loader)
	if err != nil {
		return nil, fmt.Errorf("generating the Node.js SDK of %s: %w", pkg.Name, err)
	}
	if err := writeFiles(req.GetDirectory(), files); err != nil {
		return nil, err
	}
	return resp, nil
}

// engineLoader connects to the CLI's schema loader, through which the generator reads the
// packages a schema refers to. The CLI always passes one; without it (a hand-made request) a
// schema that refers to another package fails to bind with a message naming it.
func engineLoader(target string) (schema.ReferenceLoader, func(), error) {
	if target == "" {
		return noLoader{}, func() {}, nil
	}
	client, err := schema.NewLoaderClient(target)
	if err != nil {
		return nil, nil, fmt.Errorf("connecting to the CLI's schema loader at %s: %w", target, err)
	}
	return schema.NewCachedLoader(client), func() { _ = client.Close() }, nil
}

// bindSchema parses and binds a JSON package schema. References to types of packages that are
// not loaded are allowed, as the CLI itself allows them when it binds a schema for SDK generation.
func bindSchema(text string, loader schema.Loader) (*schema.Package, hcl.Diagnostics, error) {
	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(text), &spec); err != nil {
		return nil, nil, fmt.Errorf("the package schema is not valid JSON: %w", err)
	}
	pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, nil, fmt.Errorf("binding the schema of %s: %w", spec.Name, err)
	}
	return pkg, diags, nil
}

// writeFiles writes generated files (paths relative to dir, with slashes) under dir.
func writeFiles(dir string, files map[string][]byte) error {
	for name, data := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("creating the directory of %s: %w", path, err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	return nil
}

// Link adds each SDK of the request to the program's package.json, as a `file:` dependency on
// its directory (relative to the program, as the CLI passes it), with the package manager of the
// program's runtime options, and answers how to import them.
func (h *host) Link(ctx context.Context, req *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
	info := req.GetInfo()
	dir := info.GetProgramDirectory()
	if dir == "" {
		return nil, errors.New("Link: the request names no program directory")
	}
	opts := parseOptions(info)
	pm, err := npm.ResolvePackageManager(npm.PackageManagerType(opts.packagemanager), dir)
	if err != nil {
		return nil, err
	}
	var linked []linkedSDK
	for _, dep := range req.GetPackages() {
		name, err := sdkPackageName(dir, dep.GetPath())
		if err != nil {
			return nil, err
		}
		if err := pm.Link(ctx, dir, name, dep.GetPath()); err != nil {
			return nil, fmt.Errorf("adding %s to %s: %w", name, filepath.Join(dir, "package.json"), err)
		}
		linked = append(linked, linkedSDK{schemaName: dep.GetPackage().GetName(), npmName: name})
	}
	return &pulumirpc.LinkResponse{
		ImportInstructions: importInstructions(linked, opts.typescript || hasTSConfig(dir, opts), usesESM(dir)),
	}, nil
}

// linkedSDK is one SDK Link added: the package's schema name and its npm package name.
type linkedSDK struct{ schemaName, npmName string }

// sdkPackageName is the npm name of the SDK at path (relative to dir, or absolute): the name of
// its package.json, which the generator writes from the schema (`@pulumi/<name>` unless the
// schema says otherwise).
func sdkPackageName(dir, path string) (string, error) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	raw, err := os.ReadFile(filepath.Join(path, "package.json"))
	if err != nil {
		return "", fmt.Errorf("Link takes a generated SDK's directory: %w", err)
	}
	var manifest struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(raw, &manifest); err != nil || manifest.Name == "" {
		return "", fmt.Errorf("%s names no package", filepath.Join(path, "package.json"))
	}
	return manifest.Name, nil
}

// importInstructions tells the user how to import the linked SDKs: an import statement for
// TypeScript and ES modules, a require call for CommonJS.
func importInstructions(sdks []linkedSDK, typescript, esm bool) string {
	var b strings.Builder
	lang := "JavaScript"
	if typescript {
		lang = "TypeScript"
	}
	fmt.Fprintf(&b, "You can import the SDK in your %s code with:\n\n", lang)
	sorted := append([]linkedSDK{}, sdks...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].npmName < sorted[j].npmName })
	for _, sdk := range sorted {
		ident := cgstrings.Camel(sdk.schemaName)
		if typescript || esm {
			fmt.Fprintf(&b, "  import * as %s from %q;\n", ident, sdk.npmName)
		} else {
			fmt.Fprintf(&b, "  const %s = require(%q);\n", ident, sdk.npmName)
		}
	}
	return b.String()
}

// hasTSConfig tells whether the program is TypeScript though run without the built-in
// compilation: it names a tsconfig or has a tsconfig.json.
func hasTSConfig(dir string, opts options) bool {
	if opts.tsconfig != "" {
		return true
	}
	_, err := os.Stat(filepath.Join(dir, "tsconfig.json"))
	return err == nil
}

// usesESM tells whether the program's package.json makes its .js files ES modules.
func usesESM(dir string) bool {
	raw, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return false
	}
	var manifest struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(raw, &manifest) == nil && manifest.Type == "module"
}

// noLoader is the loader of a request without the CLI's: it loads no package.
type noLoader struct{}

func (noLoader) err(name string) error {
	return fmt.Errorf("cannot load package %s: the request gave no schema loader", name)
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
