package main

import (
	"context"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

func TestGenerateProgramWritesTypeScript(t *testing.T) {
	source := map[string]string{
		"main.pp": "config greeting string {\n  default = \"hello\"\n}\n\noutput shout {\n  value = \"${greeting}, world\"\n}\n",
	}
	resp, err := (&host{}).GenerateProgram(context.Background(), &pulumirpc.GenerateProgramRequest{Source: source})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.GetDiagnostics() {
		t.Errorf("diagnostic: %s: %s", d.GetSummary(), d.GetDetail())
	}
	code := string(resp.GetSource()["index.ts"])
	for _, want := range []string{`import * as pulumi from "@pulumi/pulumi";`, `config.get("greeting") || "hello"`, "export const shout"} {
		if !strings.Contains(code, want) {
			t.Errorf("index.ts lacks %q:\n%s", want, code)
		}
	}
}

func TestGenerateProgramReportsBadSourceAsDiagnostics(t *testing.T) {
	source := map[string]string{"main.pp": "output broken {\n  value = nosuch(1)\n}\n"}
	resp, err := (&host{}).GenerateProgram(context.Background(), &pulumirpc.GenerateProgramRequest{Source: source})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.GetDiagnostics()) == 0 || len(resp.GetSource()) != 0 {
		t.Fatalf("want diagnostics and no code, got %d diagnostics and %d files", len(resp.GetDiagnostics()), len(resp.GetSource()))
	}
	if resp.GetDiagnostics()[0].GetSubject().GetFilename() != "main.pp" {
		t.Errorf("the diagnostic does not name main.pp: %v", resp.GetDiagnostics()[0])
	}
}
