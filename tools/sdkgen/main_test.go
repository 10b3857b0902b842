package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

func TestWritesEachLanguage(t *testing.T) {
	schemaFile := filepath.Join(t.TempDir(), "schema.json")
	if err := os.WriteFile(schemaFile, []byte(testSchema), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		language string
		args     []string
		stdin    string
		want     map[string]string // file: a text it holds
	}{
		{"python", []string{"-schema", schemaFile}, "", map[string]string{
			"pulumi_mdb/service.py":     "class Service(pulumi.CustomResource)",
			"pulumi_mdb/__init__.py":    "mdb:index:Service",
			"pulumi_mdb/config/vars.py": "api_url",
		}},
		{"python", []string{"-version", "2.0.0", "-local"}, testSchema, map[string]string{
			"pulumi_mdb/pulumi-plugin.json": `"version": "2.0.0"`,
		}},
		{"nodejs", []string{"-schema", "-", "-local"}, testSchema, map[string]string{
			"service.ts":             "export class Service extends pulumi.CustomResource",
			"package.json":           `"main": "bin/index.js"`,
			"scripts/postinstall.js": "tsc",
		}},
		{"go", nil, testSchema, map[string]string{
			"mdb/service.go": "type Service struct",
		}},
	} {
		t.Run(tc.language+" "+strings.Join(tc.args, " "), func(t *testing.T) {
			out := t.TempDir()
			var stderr bytes.Buffer
			args := append([]string{"-language", tc.language, "-out", out}, tc.args...)
			if err := run(args, strings.NewReader(tc.stdin), &stderr); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(stderr.String(), "wrote the "+tc.language+" SDK") {
				t.Errorf("stderr = %q", stderr.String())
			}
			for file, text := range tc.want {
				raw, err := os.ReadFile(filepath.Join(out, file))
				if err != nil {
					t.Errorf("no %s: %v", file, err)
				} else if !strings.Contains(string(raw), text) {
					t.Errorf("%s lacks %q", file, text)
				}
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	out := t.TempDir()
	for _, tc := range []struct {
		name   string
		args   []string
		schema string
		want   string
	}{
		{"no language", []string{"-out", out}, testSchema, "-language must be one of go, nodejs, python"},
		{"a language without a generator", []string{"-language", "dotnet", "-out", out}, testSchema, `not "dotnet"`},
		{"no out", []string{"-language", "python"}, testSchema, "-out names no directory"},
		{"stray argument", []string{"-language", "python", "-out", out, "schema.json"}, testSchema, "unexpected arguments: schema.json"},
		{"missing schema file", []string{"-language", "python", "-out", out, "-schema", filepath.Join(out, "none.json")}, "", "reading the schema"},
		{"not JSON", []string{"-language", "python", "-out", out}, "{", "not valid JSON"},
		{"bad version", []string{"-language", "python", "-out", out, "-version", "one"}, testSchema, `-version "one"`},
		{"another package's type", []string{"-language", "python", "-out", out},
			`{"name": "mdb", "version": "1.0.0", "resources": {"mdb:index:A": {"inputProperties": {
				"vpc": {"$ref": "/aws/v6.0.0/schema.json#/resources/aws:ec2%2Fvpc:Vpc"}}}}}`,
			`package "aws", which sdkgen cannot load`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			err := run(tc.args, strings.NewReader(tc.schema), &stderr)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("run(%q) = %v, want an error saying %q", tc.args, err, tc.want)
			}
		})
	}
}
