/**
 * Names generated for resources whose program gives none. The suffix is derived from the
 * project, stack and resource name, so it is the same on every run: a run that was
 * interrupted after the API created the resource is recognised by the next one.
 */
import * as crypto from "crypto";
import * as pulumi from "@pulumi/pulumi";

/** `<resourceName>-<7 hex digits>`: stable for one resource of one stack. */
export function autoName(resourceName: string): string {
  const hash = crypto
    .createHash("sha256")
    .update(`${pulumi.getProject()}/${pulumi.getStack()}/${resourceName}`)
    .digest("hex")
    .slice(0, 7);
  return `${resourceName}-${hash}`;
}
