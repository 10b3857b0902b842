/**
 * The provider's configuration, declared: every key of the `mdb` namespace (`mdb:<key>`) with its
 * type and doc comment, and the environment variable each falls back to. The package schema's
 * `config.variables` and the provider's inputs are generated from it; the transport limits'
 * docs are those of the client's options (`HttpClientOptions`), which they set.
 */
import { z } from "zod";
import type { HttpClientOptions } from "./client/http";
import { TRANSPORT_SETTINGS, type TransportSettingName, transportEnvVar } from "./client/settings";
import { ADOPT_EXISTING_KEYS, CONFIG_KEYS } from "./config";
import { integer, secret } from "./kit/fields/type-facts";

/** The transport limits, each a whole number (milliseconds or bytes), with the client option's doc. */
type TransportShape = {
  [K in keyof Pick<HttpClientOptions, TransportSettingName>]-?: z.ZodOptional<z.ZodNumber>;
};

/** The transport limits a stack may set. */
const transportShape = Object.fromEntries(
  TRANSPORT_SETTINGS.map(({ name }) => [name, integer(z.number()).optional()]),
) as TransportShape;

/** Every configuration key of the provider, by its name after `mdb:`. */
export const PROVIDER_CONFIG = z.object({
  /**
   * Base URL of the API, e.g. `https://api.example.com/public/api/v1`: `https://`, or `http://`
   * on a loopback host only (the local emulator).
   */
  apiUrl: z.string().optional(),
  /** Public key of the API key (the Basic auth user name). */
  publicKey: z.string().optional(),
  /** Secret key of the API key (the Basic auth password). Never logged, never in a resource's state. */
  secretKey: secret(z.string()).optional(),
  /**
   * Project of the resources and functions that do not name one. Default: the API key's own
   * project. A resource's own `projectId` input wins.
   */
  projectId: z.string().optional(),
  /**
   * Whether a create adopts an existing record of the same identity even when the program named
   * it, after an interrupted run (docs/recovery.md). Default false.
   */
  adoptExisting: z.boolean().optional(),
  ...transportShape,
  /**
   * Longest time in a row, in milliseconds, that a wait bears a status it does not expect
   * (UNSTABLE, a word the provider does not know) before it fails, naming the status and the API's
   * reason. Default 300 000 (5 minutes).
   */
  unexpectedStatusMs: integer(z.number()).optional(),
});

/** A configuration key, after `mdb:`. */
export type ConfigKey = keyof typeof PROVIDER_CONFIG.shape;

/** The environment variable `key` falls back to when the stack does not set it. */
export function configEnvVar(key: ConfigKey): string {
  if (key in CONFIG_KEYS) return CONFIG_KEYS[key as keyof typeof CONFIG_KEYS].env;
  if (key === "adoptExisting") return ADOPT_EXISTING_KEYS.env;
  return transportEnvVar(key);
}
