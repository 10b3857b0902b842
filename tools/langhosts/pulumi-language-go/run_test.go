package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

func request(t *testing.T, dir string, opts map[string]any) *pulumirpc.RunRequest {
	t.Helper()
	s, err := structpb.NewStruct(opts)
	if err != nil {
		t.Fatal(err)
	}
	return &pulumirpc.RunRequest{
		Info: &pulumirpc.ProgramInfo{ProgramDirectory: dir, RootDirectory: dir, EntryPoint: ".", Options: s},
		Pwd:  dir, MonitorAddress: "127.0.0.1:1", Project: "proj", Stack: "dev", Organization: "org",
		Parallel: 8, DryRun: true, Config: map[string]string{"proj:size": "2"}, ConfigSecretKeys: []string{"proj:password"},
	}
}

func TestProgramEnvIsWhatTheGoSDKReads(t *testing.T) {
	got := programEnv(request(t, "/p", nil), "127.0.0.1:2")
	want := []string{"PULUMI_MONITOR=127.0.0.1:1", "PULUMI_ENGINE=127.0.0.1:2", "PULUMI_ORGANIZATION=org",
		"PULUMI_PROJECT=proj", "PULUMI_STACK=dev", "PULUMI_ROOT_DIRECTORY=/p", "PULUMI_PARALLEL=8",
		"PULUMI_DRY_RUN=true", `PULUMI_CONFIG={"proj:size":"2"}`, `PULUMI_CONFIG_SECRET_KEYS=["proj:password"]`}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("programEnv =\n%q\nwant\n%q", got, want)
	}
}

func TestBuildArgsName(t *testing.T) {
	for entry, want := range map[string]string{"": ".", ".": ".", "cmd/app": "./cmd/app", "./app": "./app", "/abs": "/abs"} {
		if got := buildArgs(entry, "/tmp/out"); !reflect.DeepEqual(got, []string{"build", "-o", "/tmp/out", want}) {
			t.Fatalf("buildArgs(%q) = %q", entry, got)
		}
	}
}

func TestTheBinaryOptionIsRunAsItIs(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "prog"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	binary, cleanup, err := programBinary(t.Context(), request(t, dir, map[string]any{"binary": "prog"}))
	if err != nil || binary != filepath.Join(dir, "prog") {
		t.Fatalf("programBinary = %q, %v", binary, err)
	}
	cleanup()
	if _, err := os.Stat(binary); err != nil {
		t.Fatalf("the prebuilt binary was removed: %v", err)
	}
	_, _, err = programBinary(t.Context(), request(t, dir, map[string]any{"binary": "missing"}))
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "missing")) {
		t.Fatalf("a missing binary = %v, want an error naming it", err)
	}
}

func TestABuildFailureShowsTheCompilersOutput(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"go.mod": "module broken\n\ngo 1.25\n", "main.go": "package main\n\nfunc main() { undefinedName() }\n"}
	for file, text := range files {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOFLAGS", "-mod=mod")
	_, _, err := programBinary(t.Context(), request(t, dir, nil))
	if err == nil || !strings.Contains(err.Error(), "undefined: undefinedName") || !strings.Contains(err.Error(), dir) {
		t.Fatalf("a program that does not compile = %v", err)
	}
}

func TestABuiltProgramRunsWithTheEngineVariables(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "seen")
	main := "package main\n\nimport \"os\"\n\nfunc main() {\n\t_ = os.WriteFile(" +
		strings.ReplaceAll(`"`+out+`"`, `\`, `\\`) + ", []byte(os.Getenv(\"PULUMI_STACK\")+\" \"+os.Getenv(\"PULUMI_DRY_RUN\")), 0o644)\n}\n"
	for file, text := range map[string]string{"go.mod": "module ok\n\ngo 1.25\n", "main.go": main} {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOFLAGS", "-mod=mod")
	resp, err := (&goHost{}).Run(t.Context(), request(t, dir, nil))
	if err != nil || resp.GetError() != "" || resp.GetBail() {
		t.Fatalf("Run = %+v, %v", resp, err)
	}
	if seen, err := os.ReadFile(out); err != nil || string(seen) != "dev true" {
		t.Fatalf("the program saw %q (%v), want \"dev true\"", seen, err)
	}
}
