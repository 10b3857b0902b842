/**
 * Names generated for resources whose program gives none. The suffix is derived from the
 * project, stack and resource name, so it is the same on every run: a run that was
 * interrupted after the API created the resource is recognised by the next one. Both faces make
 * the same name for the same resource (a stack moved between them keeps its names).
 */
import * as crypto from "crypto";

/** `<resourceName>-<7 hex digits>`: stable for one resource of one stack of one project. */
export function autoName(project: string, stack: string, resourceName: string): string {
  const hash = crypto
    .createHash("sha256")
    .update(`${project}/${stack}/${resourceName}`)
    .digest("hex")
    .slice(0, 7);
  return `${resourceName}-${hash}`;
}
