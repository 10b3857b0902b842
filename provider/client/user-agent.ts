/**
 * The User-Agent every request of the client carries: the package's name and version and Node's,
 * so the API's logs (and the emulator's request log) tell which release sent a call.
 */
import * as fs from "fs";
import * as path from "path";

/** Reads this package's version once, from the nearest `package.json` of `pulumi-managed-db`. */
function packageVersion(): string {
  let dir = __dirname;
  for (let i = 0; i < 5; i++) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "pulumi-managed-db" && pkg.version) return pkg.version;
    }
    dir = path.dirname(dir);
  }
  return "0.0.0";
}

/** The User-Agent sent with every request: package name and version, and Node's. */
export const USER_AGENT = `pulumi-managed-db/${packageVersion()} (node ${process.version})`;
