package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

func programInfo(t *testing.T, dir string, opts map[string]any) *pulumirpc.ProgramInfo {
	t.Helper()
	s, err := structpb.NewStruct(opts)
	if err != nil {
		t.Fatal(err)
	}
	return &pulumirpc.ProgramInfo{ProgramDirectory: dir, RootDirectory: dir, EntryPoint: ".", Options: s}
}

func TestRunArgsAreTheRunnersFlags(t *testing.T) {
	req := &pulumirpc.RunRequest{
		Info: programInfo(t, "/p", nil), Pwd: "/p", MonitorAddress: "127.0.0.1:1", Project: "proj",
		Stack: "dev", Organization: "org", Parallel: 8, DryRun: true, Args: []string{"extra"},
	}
	got := runArgs(req, "127.0.0.1:2", "/bin/runner")
	want := []string{"-u", "/bin/runner", "--monitor", "127.0.0.1:1", "--engine", "127.0.0.1:2",
		"--organization", "org", "--project", "proj", "--stack", "dev", "--pwd", "/p", "--root_directory", "/p",
		"--parallel", "8", "--dry_run", "true", "/p", "extra"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("runArgs =\n%q\nwant\n%q", got, want)
	}
	req.DryRun, req.Info.EntryPoint = false, "main.py"
	got = runArgs(req, "", "/bin/runner")
	if got[len(got)-3] != "false" || got[len(got)-2] != "/p/main.py" {
		t.Fatalf("runArgs of an update with an entry point = %q", got)
	}
}

func TestToolchainOptions(t *testing.T) {
	dir := t.TempDir()
	venv := filepath.Join(dir, "venv", "bin")
	if err := os.MkdirAll(venv, 0o755); err != nil {
		t.Fatal(err)
	}
	tc, err := toolchainOf(programInfo(t, dir, map[string]any{"virtualenv": "venv", "toolchain": "pip"}))
	if err != nil {
		t.Fatal(err)
	}
	cmd, err := tc.Command(t.Context(), "-V")
	if err != nil {
		t.Fatal(err)
	}
	if cmd.Path != filepath.Join(venv, "python") {
		t.Fatalf("python of the virtualenv option = %q", cmd.Path)
	}
	if _, err := toolchainOf(programInfo(t, dir, map[string]any{"toolchain": "conda"})); err == nil {
		t.Fatal("an unknown toolchain was accepted")
	}
}
