package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// testSchema is a package with one resource, the shape of the mdb plugin's schema.
const testSchema = `{
  "name": "mdb", "version": "1.2.3",
  "config": {"variables": {"apiUrl": {"type": "string"}}},
  "resources": {"mdb:index:Service": {
    "inputProperties": {"name": {"type": "string"}, "cpuMillis": {"type": "integer"}},
    "requiredInputs": ["name"],
    "properties": {"name": {"type": "string"}, "hostname": {"type": "string"}},
    "required": ["name", "hostname"]
  }}
}`

func TestGeneratePackage(t *testing.T) {
	for _, tc := range []struct {
		name  string
		local bool
		want  []string // files that must be there
		main  string   // package.json's main
	}{
		{name: "published", want: []string{"index.ts", "service.ts", "provider.ts", "config/vars.ts", "package.json"}},
		{name: "local", local: true, want: []string{"index.ts", "service.ts", "scripts/postinstall.js"}, main: "bin/index.js"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			resp, err := (&host{}).GeneratePackage(context.Background(), &pulumirpc.GeneratePackageRequest{
				Directory: dir, Schema: testSchema, Local: tc.local,
			})
			if err != nil || len(resp.GetDiagnostics()) != 0 {
				t.Fatalf("GeneratePackage = %v, %v", resp, err)
			}
			for _, file := range tc.want {
				if _, err := os.Stat(filepath.Join(dir, file)); err != nil {
					t.Errorf("no %s: %v", file, err)
				}
			}
			var manifest struct{ Name, Main string }
			raw, _ := os.ReadFile(filepath.Join(dir, "package.json"))
			if err := json.Unmarshal(raw, &manifest); err != nil || manifest.Name != "@pulumi/mdb" || manifest.Main != tc.main {
				t.Fatalf("package.json = %s (%v)", raw, err)
			}
		})
	}
}

func TestGeneratePackageRefusesBadSchemas(t *testing.T) {
	for _, tc := range []struct{ name, schema, want string }{
		{"not JSON", "{", "not valid JSON"},
		{"another package's type", `{"name": "mdb", "version": "1.0.0", "resources": {"mdb:index:A": {
			"inputProperties": {"vpc": {"$ref": "/aws/v6.0.0/schema.json#/resources/aws:ec2%2Fvpc:Vpc"}}}}}`,
			"cannot load package aws"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := (&host{}).GeneratePackage(context.Background(), &pulumirpc.GeneratePackageRequest{
				Directory: t.TempDir(), Schema: tc.schema,
			})
			got := ""
			if err != nil {
				got = err.Error()
			}
			for _, d := range resp.GetDiagnostics() {
				got += d.GetSummary() + d.GetDetail()
			}
			if !strings.Contains(got, tc.want) {
				t.Fatalf("GeneratePackage gave %q, want it to say %q", got, tc.want)
			}
		})
	}
}

func TestImportInstructions(t *testing.T) {
	sdks := []linkedSDK{{schemaName: "mdb", npmName: "@pulumi/mdb"}, {schemaName: "random-pet", npmName: "@acme/random-pet"}}
	for _, tc := range []struct {
		name            string
		typescript, esm bool
		want            string
	}{
		{"typescript", true, false, "You can import the SDK in your TypeScript code with:\n\n" +
			"  import * as randomPet from \"@acme/random-pet\";\n  import * as mdb from \"@pulumi/mdb\";\n"},
		{"ES modules", false, true, "You can import the SDK in your JavaScript code with:\n\n" +
			"  import * as randomPet from \"@acme/random-pet\";\n  import * as mdb from \"@pulumi/mdb\";\n"},
		{"CommonJS", false, false, "You can import the SDK in your JavaScript code with:\n\n" +
			"  const randomPet = require(\"@acme/random-pet\");\n  const mdb = require(\"@pulumi/mdb\");\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := importInstructions(sdks, tc.typescript, tc.esm); got != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestLinkAddsTheSDKToPackageJSON links a generated SDK into a JavaScript program with npm, as
// `pulumi package add` does before it installs the program's dependencies.
func TestLinkAddsTheSDKToPackageJSON(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not on PATH")
	}
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name": "prog", "type": "module", "dependencies": {}}`)
	write("sdks/mdb/package.json", `{"name": "@pulumi/mdb", "version": "1.2.3"}`)

	req := &pulumirpc.LinkRequest{
		Info: programInfo(t, dir, map[string]any{"typescript": false}),
		Packages: []*pulumirpc.LinkRequest_LinkDependency{
			{Package: &pulumirpc.PackageDependency{Name: "mdb", Version: "1.2.3"}, Path: "sdks/mdb"},
		},
	}
	resp, err := (&host{}).Link(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if want := `import * as mdb from "@pulumi/mdb";`; !strings.Contains(resp.GetImportInstructions(), want) {
		t.Fatalf("instructions %q lack %q", resp.GetImportInstructions(), want)
	}
	var manifest struct {
		Dependencies map[string]string
		AllowScripts map[string]bool
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "package.json"))
	if err := json.Unmarshal(raw, &manifest); err != nil {
		t.Fatal(err)
	}
	if manifest.Dependencies["@pulumi/mdb"] != "file:sdks/mdb" || !manifest.AllowScripts["file:sdks/mdb"] {
		t.Fatalf("package.json after Link: %s", raw)
	}

	req.Packages[0].Path = "sdks/missing"
	if _, err := (&host{}).Link(context.Background(), req); err == nil || !strings.Contains(err.Error(), "generated SDK's directory") {
		t.Fatalf("Link of a missing SDK = %v", err)
	}
}
