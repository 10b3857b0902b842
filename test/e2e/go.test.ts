/**
 * The plugin's Go SDK compiles (issue 30): `sdkgen -language go` on the packed package's schema,
 * then `go build` of a Go program using it (test/e2e/programs/go: resources, functions and the
 * component) against Pulumi's Go SDK from the Go module proxy, with the committed go.mod and go.sum
 * (-mod=readonly: nothing is resolved). It is not run: the Python and YAML tests run programs. The
 * Go build flags are scripts/ensure-pulumi's, so the build cache its builds filled is reused.
 * Without go it is skipped, except in CI (CI set), where it fails, as `npm run check:go` does.
 */
import { execFile, execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";

jest.setTimeout(300_000);

const PROGRAM = path.resolve(__dirname, "programs/go");

function haveGo(): boolean {
  try {
    execFileSync("go", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const go = haveGo() || process.env.CI ? it : it.skip;

go("a Go program builds against the Go SDK generated from the schema", async () => {
  const work = process.env.MDB_E2E_WORK;
  const bin = process.env.MDB_E2E_PULUMI_BIN;
  if (!work || !bin) throw new Error("the e2e global setup did not run (test/e2e/setup.ts)");
  const dir = fs.mkdtempSync(path.join(work, "go-program-"));
  try {
    for (const file of ["main.go", "go.mod", "go.sum"])
      fs.copyFileSync(path.join(PROGRAM, file), path.join(dir, file));
    const schema = path.join(work, "package", "plugin", "schema.json");
    execFileSync(
      path.join(bin, "sdkgen"),
      ["-language", "go", "-schema", schema, "-out", path.join(dir, "sdk")],
      {
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    expect(fs.readdirSync(path.join(dir, "sdk", "mdb"))).toEqual(
      expect.arrayContaining(["service.go", "productionDatabase.go", "getService.go", "pulumiTypes.go"]),
    );
    fs.writeFileSync(path.join(dir, "sdk", "go.mod"), "module example.com/pulumi-mdb/sdk/go\n\ngo 1.25\n");
    const result = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        "go",
        ["build", "-o", path.join(dir, "program"), "."],
        {
          cwd: dir,
          env: {
            ...process.env,
            CGO_ENABLED: "0",
            GOWORK: "off",
            GOFLAGS: "-trimpath -buildvcs=false -mod=readonly",
          },
          maxBuffer: 16 * 1024 * 1024,
        },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
      );
    });
    expect(result).toEqual({ code: 0, output: "" });
    expect(fs.statSync(path.join(dir, "program")).size).toBeGreaterThan(0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
