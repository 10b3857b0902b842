package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testSchema is a package with one resource and one enum, the shapes of the mdb plugin's schema.
const testSchema = `{
  "name": "mdb", "version": "1.2.3",
  "types": {"mdb:index:ServiceType": {"type": "string", "enum": [{"value": "POSTGRES"}]}},
  "resources": {"mdb:index:Service": {
    "inputProperties": {"serviceType": {"$ref": "#/types/mdb:index:ServiceType"}, "cpuMillis": {"type": "integer"}},
    "requiredInputs": ["serviceType"],
    "properties": {"serviceType": {"type": "string"}, "hostname": {"type": "string"}},
    "required": ["serviceType", "hostname"]
  }}
}`

func TestWritesTheCSharpSDKOffline(t *testing.T) {
	out := t.TempDir()
	var stderr bytes.Buffer
	if err := run([]string{"-out", out}, strings.NewReader(testSchema), &stderr); err != nil {
		t.Fatalf("run: %v (%s)", err, stderr.String())
	}
	service, err := os.ReadFile(filepath.Join(out, "Service.cs"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"namespace Pulumi.Mdb", "public sealed class ServiceArgs", "public Input<int>? CpuMillis"} {
		if !strings.Contains(string(service), want) {
			t.Errorf("Service.cs lacks %q", want)
		}
	}
	enums, err := os.ReadFile(filepath.Join(out, "Enums.cs"))
	if err != nil || !strings.Contains(string(enums), "public static ServiceType POSTGRES") {
		t.Errorf("Enums.cs lacks the enum member POSTGRES (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(out, "Pulumi.Mdb.csproj")); err != nil {
		t.Error(err)
	}
}

func TestRefusesABrokenSchema(t *testing.T) {
	err := run([]string{"-out", t.TempDir()}, strings.NewReader(`{"name": "mdb", "resources": {"mdb:index:X": {"properties": {"a": {"$ref": "#/types/nope"}}}}}`), &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "binding the schema") {
		t.Fatalf("want a binding error, got %v", err)
	}
}

func TestNeedsOut(t *testing.T) {
	if err := run(nil, strings.NewReader(testSchema), &bytes.Buffer{}); err == nil || err.Error() != "-out is required" {
		t.Fatalf("got %v", err)
	}
}
