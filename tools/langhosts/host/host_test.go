package host

import (
	"errors"
	"os/exec"
	"reflect"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

func TestEngineAddressIsTheLastPositionalArgument(t *testing.T) {
	if got := EngineAddress([]string{"-root", "/x", "127.0.0.1:4000"}); got != "127.0.0.1:4000" {
		t.Fatalf("EngineAddress = %q", got)
	}
	if got := EngineAddress([]string{"-virtualenv=venv"}); got != "" {
		t.Fatalf("EngineAddress without positional arguments = %q", got)
	}
}

func TestConfigEnvIsJSON(t *testing.T) {
	env := ConfigEnv(&pulumirpc.RunRequest{
		Config: map[string]string{"mdb:apiUrl": "http://127.0.0.1:1"}, ConfigSecretKeys: []string{"mdb:secretKey"},
	})
	want := []string{`PULUMI_CONFIG={"mdb:apiUrl":"http://127.0.0.1:1"}`, `PULUMI_CONFIG_SECRET_KEYS=["mdb:secretKey"]`}
	if !reflect.DeepEqual(env, want) {
		t.Fatalf("ConfigEnv = %q", env)
	}
	if env := ConfigEnv(&pulumirpc.RunRequest{}); !reflect.DeepEqual(env, []string{"PULUMI_CONFIG={}", "PULUMI_CONFIG_SECRET_KEYS=[]"}) {
		t.Fatalf("ConfigEnv of no config = %q", env)
	}
}

func TestProgramDirIsThePulumiYamlsElseTheWorkingDirectory(t *testing.T) {
	req := &pulumirpc.RunRequest{Pwd: "/work", Info: &pulumirpc.ProgramInfo{ProgramDirectory: "/p"}}
	if got := ProgramDir(req); got != "/p" {
		t.Fatalf("ProgramDir = %q", got)
	}
	if got := ProgramDir(&pulumirpc.RunRequest{Pwd: "/work"}); got != "/work" {
		t.Fatalf("ProgramDir without program info = %q", got)
	}
}

func TestRunResponse(t *testing.T) {
	if r := RunResponse(nil, "python"); r.Error != "" || r.Bail {
		t.Fatalf("success = %+v", r)
	}
	exit := func(code string) error { return exec.Command("sh", "-c", "exit "+code).Run() }
	if r := RunResponse(exit("32"), "python"); !r.Bail {
		t.Fatalf("exit 32 = %+v, want a bail", r)
	}
	if r := RunResponse(exit("3"), "python"); r.Error != "Program exited with non-zero exit code: 3" {
		t.Fatalf("exit 3 = %+v", r)
	}
	if r := RunResponse(errors.New("no such file"), "python"); r.Error != "Problem executing program (could not run python): no such file" || r.Bail {
		t.Fatalf("a start failure = %+v", r)
	}
}
