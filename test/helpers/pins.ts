/** The Pulumi versions the repository's files pin, read the same way by every test of them. */
import * as fs from "fs";
import * as path from "path";

/** The repository's root. */
export const ROOT = path.resolve(__dirname, "../..");

/** A file of the repository, by its path from the root. */
export const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), "utf8");

/** The versions a go.mod requires the Pulumi Go modules at, by module ("pkg/v3", "sdk/v3"). */
export function pulumiPins(goMod: string): Record<string, string> {
  const pins: Record<string, string> = {};
  for (const match of read(goMod).matchAll(
    /^\s*(?:require\s+)?github\.com\/pulumi\/pulumi\/(\w+\/v3) v(\S+)/gm,
  )) {
    pins[match[1]] = match[2];
  }
  return pins;
}
