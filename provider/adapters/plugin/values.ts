/**
 * Properties between the engine's `Struct`s and the plain values the kit works with. The engine
 * hands the plugin secrets as such (it accepts secrets): they are unwrapped before the kit sees
 * them, and the names of the properties that held one are kept, so that what goes back wraps
 * them again, with every secret row of the field table. Unknowns (previews) stay the sentinel
 * string the kit expects (`pulumi-contract/sentinels.ts`); `undefined` never reaches a Struct.
 */
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { protocol } from "../../pulumi-contract/grpc-protocol";
import { SECRET_SIG, SIG_KEY } from "../../pulumi-contract/sentinels";
import { withoutUndefined } from "../../kit/fields/outputs";
import type { Props } from "../../kit/spec";

/** Properties as the kit takes them, and which of them the engine handed over as secrets. */
export interface Received {
  /** The properties, secrets unwrapped. */
  props: Props;
  /** Names of the properties that held a secret (anywhere inside). */
  secrets: Set<string>;
}

/** True when `value` is the wire's secret object. */
function isSecret(value: unknown): value is { value?: unknown } {
  return (
    typeof value === "object" && value !== null && (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG
  );
}

/** `value` without secret wrappers, and whether it had one. */
function unwrap(value: unknown): { value: unknown; secret: boolean } {
  if (isSecret(value)) return { value: unwrap(value.value).value, secret: true };
  if (Array.isArray(value)) {
    const items = value.map(unwrap);
    return { value: items.map((i) => i.value), secret: items.some((i) => i.secret) };
  }
  if (typeof value === "object" && value !== null) {
    let secret = false;
    const out: Props = {};
    for (const [key, member] of Object.entries(value)) {
      const inner = unwrap(member);
      out[key] = inner.value;
      secret ||= inner.secret;
    }
    return { value: out, secret };
  }
  return { value, secret: false };
}

/** The properties of `struct` (none when absent), secrets unwrapped and named. */
export function received(struct: Struct | undefined): Received {
  const raw = (struct?.toJavaScript() ?? {}) as Props;
  const props: Props = {};
  const secrets = new Set<string>();
  for (const [key, value] of Object.entries(raw)) {
    const inner = unwrap(value);
    props[key] = inner.value;
    if (inner.secret) secrets.add(key);
  }
  return { props, secrets };
}

/** `value` as the wire's secret. */
export function secretValue(value: unknown): unknown {
  return { [SIG_KEY]: SECRET_SIG, value };
}

/**
 * A Struct of `props`, each property named in `secret` wrapped as a secret unless it is null (it
 * holds nothing to hide); undefined members dropped.
 */
export function toStruct(props: Props, secret: Iterable<string> = []): Struct {
  const out = withoutUndefined(props);
  for (const key of secret)
    if (out[key] !== undefined && out[key] !== null && !isSecret(out[key])) out[key] = secretValue(out[key]);
  return protocol().struct.Struct.fromJavaScript(out as Parameters<typeof Struct.fromJavaScript>[0]);
}

/** The union of names. */
export function namesOf(...sets: Iterable<string>[]): Set<string> {
  const all = new Set<string>();
  for (const set of sets) for (const name of set) all.add(name);
  return all;
}

/** The shortest secret text {@link redact} hides: shorter ones would hide ordinary words with them. */
const REDACTED_MIN_LENGTH = 4;

/**
 * The texts of the properties `secrets` names (strings at any depth, numbers as written), for
 * {@link redact}: the kit's progress lines and errors name inputs (a service's `name`), which are
 * secrets when the program gave them as such.
 */
export function secretTexts(props: Props, secrets: Iterable<string>): string[] {
  const texts = new Set<string>();
  const collect = (value: unknown): void => {
    if (typeof value === "string" || typeof value === "number") {
      if (String(value).length >= REDACTED_MIN_LENGTH) texts.add(String(value));
    } else if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(collect);
  };
  for (const key of secrets) collect(props[key]);
  // Longest first, so a secret that contains another is hidden whole.
  return [...texts].sort((a, b) => b.length - a.length);
}

/** `text` with every one of `secrets` replaced by `[secret]`. */
export function redact(text: string, secrets: readonly string[]): string {
  return secrets.reduce((out, secret) => out.split(secret).join("[secret]"), text);
}
