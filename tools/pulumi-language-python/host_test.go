package main

import (
	"errors"
	"os"
	"os/exec"
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

func TestEngineAddressIsTheLastPositionalArgument(t *testing.T) {
	if got := engineAddress([]string{"-root", "/x", "127.0.0.1:4000"}); got != "127.0.0.1:4000" {
		t.Fatalf("engineAddress = %q", got)
	}
	if got := engineAddress([]string{"-virtualenv=venv"}); got != "" {
		t.Fatalf("engineAddress without positional arguments = %q", got)
	}
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

func TestConfigEnvIsJSON(t *testing.T) {
	env := configEnv(&pulumirpc.RunRequest{
		Config: map[string]string{"mdb:apiUrl": "http://127.0.0.1:1"}, ConfigSecretKeys: []string{"mdb:secretKey"},
	})
	want := []string{`PULUMI_CONFIG={"mdb:apiUrl":"http://127.0.0.1:1"}`, `PULUMI_CONFIG_SECRET_KEYS=["mdb:secretKey"]`}
	if !reflect.DeepEqual(env, want) {
		t.Fatalf("configEnv = %q", env)
	}
	if env := configEnv(&pulumirpc.RunRequest{}); !reflect.DeepEqual(env, []string{"PULUMI_CONFIG={}", "PULUMI_CONFIG_SECRET_KEYS=[]"}) {
		t.Fatalf("configEnv of no config = %q", env)
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

func TestRunResponse(t *testing.T) {
	if r := runResponse(nil); r.Error != "" || r.Bail {
		t.Fatalf("success = %+v", r)
	}
	exit := func(code string) error { return exec.Command("sh", "-c", "exit "+code).Run() }
	if r := runResponse(exit("32")); !r.Bail {
		t.Fatalf("exit 32 = %+v, want a bail", r)
	}
	if r := runResponse(exit("3")); r.Error != "Program exited with non-zero exit code: 3" {
		t.Fatalf("exit 3 = %+v", r)
	}
	if r := runResponse(errors.New("no such file")); r.Error == "" || r.Bail {
		t.Fatalf("a start failure = %+v", r)
	}
}
