package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
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
	got := engineAddress([]string{"-root", "/x", "127.0.0.1:4000", "-tracing", "127.0.0.1:5000"})
	if got != "127.0.0.1:5000" {
		t.Fatalf("engineAddress = %q", got)
	}
	if got := engineAddress([]string{"-typescript"}); got != "" {
		t.Fatalf("engineAddress without positional arguments = %q", got)
	}
}

func TestParseOptions(t *testing.T) {
	defaults := parseOptions(programInfo(t, "/p", map[string]any{}))
	want := options{typescript: true, packagemanager: "npm"}
	if !reflect.DeepEqual(defaults, want) {
		t.Fatalf("defaults = %+v, want %+v", defaults, want)
	}
	if env := defaults.env(); !reflect.DeepEqual(env, []string{"PULUMI_NODEJS_TYPESCRIPT=true"}) {
		t.Fatalf("default env = %v", env)
	}

	set := parseOptions(programInfo(t, "/p", map[string]any{
		"typescript": false, "tsconfig": "tsconfig.prod.json", "nodeargs": "--inspect  --max-old-space-size=512",
		"packagemanager": "pnpm",
	}))
	want = options{tsconfig: "tsconfig.prod.json", nodeargs: []string{"--inspect", "--max-old-space-size=512"},
		packagemanager: "pnpm"}
	if !reflect.DeepEqual(set, want) {
		t.Fatalf("options = %+v, want %+v", set, want)
	}
	if env := set.env(); !reflect.DeepEqual(env, []string{"PULUMI_NODEJS_TSCONFIG_PATH=tsconfig.prod.json"}) {
		t.Fatalf("env = %v", env)
	}
	if pm := parseOptions(programInfo(t, "/p", map[string]any{"packagemanager": "auto"})).packagemanager; pm != "npm" {
		t.Fatalf(`"auto" package manager = %q, want npm`, pm)
	}
}

func TestRunInvocation(t *testing.T) {
	req := &pulumirpc.RunRequest{
		Project: "proj", Stack: "dev", Pwd: "/work", MonitorAddress: "127.0.0.1:1", Parallel: 8, DryRun: true,
		Config: map[string]string{"proj:k": "v"}, ConfigSecretKeys: []string{"proj:k"}, Args: []string{"extra"},
		Info: programInfo(t, "/work/app", map[string]any{"nodeargs": "--trace-warnings"}),
	}
	inv := runInvocation(req, "127.0.0.1:2", "/work/app/node_modules/@pulumi/pulumi/cmd/run/index.js")
	wantArgs := []string{"--trace-warnings", "/work/app/node_modules/@pulumi/pulumi/cmd/run/index.js",
		"--monitor", "127.0.0.1:1", "--engine", "127.0.0.1:2", "--project", "proj", "--stack", "dev",
		"--pwd", "/work", "--root-directory", "/work/app", "--parallel", "8", "--dry-run", "/work/app", "extra"}
	if !reflect.DeepEqual(inv.args, wantArgs) {
		t.Fatalf("args =\n%q\nwant\n%q", inv.args, wantArgs)
	}
	if inv.dir != "/work" {
		t.Fatalf("dir = %q, want the request's pwd", inv.dir)
	}
	wantEnv := []string{`PULUMI_CONFIG={"proj:k":"v"}`, `PULUMI_CONFIG_SECRET_KEYS=["proj:k"]`,
		"PULUMI_NODEJS_TYPESCRIPT=true"}
	if !reflect.DeepEqual(inv.env, wantEnv) {
		t.Fatalf("env = %q, want %q", inv.env, wantEnv)
	}

	// Without a pwd, entry point or config: the program directory, "." and empty JSON values.
	bare := runInvocation(&pulumirpc.RunRequest{Info: &pulumirpc.ProgramInfo{ProgramDirectory: "/app"}}, "", "run.js")
	if bare.dir != "/app" || bare.args[len(bare.args)-1] != "/app" || strings.Contains(strings.Join(bare.args, " "), "--dry-run") {
		t.Fatalf("bare invocation = %+v", bare)
	}
	if bare.env[0] != "PULUMI_CONFIG={}" || bare.env[1] != "PULUMI_CONFIG_SECRET_KEYS=[]" {
		t.Fatalf("bare env = %q", bare.env)
	}
}

func TestPluginArgs(t *testing.T) {
	info := programInfo(t, "/packs/guard", map[string]any{})
	analyzer := pluginArgs(&pulumirpc.RunPluginRequest{Kind: "analyzer", Args: []string{"127.0.0.1:9"}, Info: info}, "pack.js")
	if want := []string{"pack.js", "127.0.0.1:9", "/packs/guard"}; !reflect.DeepEqual(analyzer, want) {
		t.Fatalf("analyzer args = %q, want %q", analyzer, want)
	}
	plugin := pluginArgs(&pulumirpc.RunPluginRequest{Kind: "resource", Args: []string{"--flag"}, Info: info}, "plugin.js")
	if want := []string{"plugin.js", "/packs/guard", "--flag"}; !reflect.DeepEqual(plugin, want) {
		t.Fatalf("plugin args = %q, want %q", plugin, want)
	}
	if pluginModule("analyzer") != "@pulumi/pulumi/cmd/run-policy-pack" || pluginModule("tool") != "@pulumi/pulumi/cmd/run-plugin" {
		t.Fatal("pluginModule picks the wrong entry point")
	}
}

func TestStackEnv(t *testing.T) {
	cfg := map[string]string{"p:a": "1"}
	got := stackEnv(&pulumirpc.AnalyzerStackConfigureRequest{Project: "p", Stack: "dev", DryRun: true, Config: cfg})
	want := []string{"PULUMI_NODEJS_PROJECT=p", "PULUMI_NODEJS_STACK=dev", "PULUMI_NODEJS_DRY_RUN=true",
		`PULUMI_CONFIG={"p:a":"1"}`}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("stackEnv = %q, want %q", got, want)
	}
	if got := stackEnv(nil); len(got) != 0 {
		t.Fatalf("stackEnv(nil) = %q", got)
	}
}

// fakeSDK writes, under dir/node_modules, an @pulumi/pulumi whose cmd/run records its arguments,
// working directory and PULUMI_CONFIG in dir/record.json, then exits with $FAKE_EXIT.
func fakeSDK(t *testing.T, dir string) {
	t.Helper()
	run := filepath.Join(dir, "node_modules", "@pulumi", "pulumi", "cmd", "run")
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	script := `require("fs").writeFileSync(require("path").join(__dirname, "../../../../../record.json"),
  JSON.stringify({ args: process.argv.slice(2), cwd: process.cwd(), config: process.env.PULUMI_CONFIG }));
process.exit(Number(process.env.FAKE_EXIT || 0));
`
	if err := os.WriteFile(filepath.Join(run, "index.js"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestResolveModuleWalksUpLikeNode(t *testing.T) {
	node, err := findNode()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fakeSDK(t, dir)
	sub := filepath.Join(dir, "src", "app")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := resolveModule(node, sub, "@pulumi/pulumi/cmd/run")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "node_modules/@pulumi/pulumi/cmd/run/index.js"); got != want {
		t.Fatalf("resolved %q, want %q", got, want)
	}
	_, err = resolveModule(node, t.TempDir(), "@pulumi/pulumi/cmd/run")
	if err == nil || !strings.Contains(err.Error(), "have you run `npm install`?") {
		t.Fatalf("missing SDK error = %v", err)
	}
}

func TestRunStartsTheProgramsSDKAndMapsItsExit(t *testing.T) {
	dir := t.TempDir()
	fakeSDK(t, dir)
	req := &pulumirpc.RunRequest{Pwd: dir, Config: map[string]string{"p:a": "1"}, Info: programInfo(t, dir, map[string]any{})}
	h := &host{engine: "127.0.0.1:7"}

	resp, err := h.Run(context.Background(), req)
	if err != nil || resp.GetError() != "" || resp.GetBail() {
		t.Fatalf("Run = %v, %v", resp, err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "record.json"))
	if err != nil {
		t.Fatal(err)
	}
	var record struct {
		Args   []string
		Cwd    string
		Config string
	}
	if err := json.Unmarshal(raw, &record); err != nil {
		t.Fatal(err)
	}
	if record.Cwd != dir || record.Config != `{"p:a":"1"}` || record.Args[len(record.Args)-1] != dir ||
		!strings.Contains(strings.Join(record.Args, " "), "--engine 127.0.0.1:7") {
		t.Fatalf("the program ran with %+v", record)
	}

	t.Setenv("FAKE_EXIT", "32")
	if resp, _ := h.Run(context.Background(), req); !resp.GetBail() || resp.GetError() != "" {
		t.Fatalf("exit 32 gave %v, want a bail", resp)
	}
	t.Setenv("FAKE_EXIT", "3")
	if resp, _ := h.Run(context.Background(), req); resp.GetError() != "Program exited with non-zero exit code: 3" {
		t.Fatalf("exit 3 gave %v", resp)
	}
	empty := &pulumirpc.RunRequest{Pwd: t.TempDir()}
	if resp, _ := h.Run(context.Background(), empty); !strings.Contains(resp.GetError(), "cannot find @pulumi/pulumi/cmd/run") {
		t.Fatalf("without an SDK Run gave %v", resp)
	}
}
