/**
 * What every RPC of the plugin works with: the process's runtime (one per `pulumi` command: the
 * engine starts the plugin for it), the resource types, the engine's log, and whether the engine
 * introduced itself with Handshake; and the {@link CallContext} of a call about one resource,
 * made of the engine's request (its URN and timeout, the inputs it gave as secrets).
 */
import type { CallContext } from "../../kit/context";
import type { ConfigRuntime } from "../../runtime";
import { progressLine } from "../../runtime";
import type { EngineLog } from "./engine-log";
import type { Kinds } from "./kinds";
import { parseUrn } from "./urn";
import { redact } from "./values";

/** The plugin process's state. */
export interface PluginContext {
  /** The runtime the kit providers share: configuration, holds, cancellation. */
  runtime: ConfigRuntime;
  /** The resource types served. */
  kinds: Kinds;
  /** Progress to the engine. */
  engine: EngineLog;
  /** Set once the engine called Handshake (engines before it never do). */
  handshake: { done: boolean };
  /**
   * This process's own provider, `<urn>::<id>` as the engine registered it, once Configure named
   * it (older engines do not): a Construct's children use it when the program named none.
   */
  provider: { reference?: string };
  /** The package schema GetSchema answers with: `plugin/schema.json` of the package. */
  schemaFile: string;
}

/** What a call carries besides the resource: its time limit (seconds, 0 for none) and secret inputs. */
export interface CallOptions {
  /** The request's `timeout`, in seconds; 0 or absent: the kit's default. */
  timeoutSeconds?: number;
  /** Inputs the engine handed over as secrets. */
  secretInputs?: ReadonlySet<string>;
  /** Their texts, which no progress line shows (`values.ts`, `secretTexts`). */
  secretTexts?: readonly string[];
}

/** The kit's context of a call about the resource `urn`: its name, progress under it, its limit. */
export function callOf(ctx: PluginContext, urn: string, options: CallOptions = {}): CallContext {
  const seconds = options.timeoutSeconds ?? 0;
  return {
    name: parseUrn(urn).name,
    anyLanguage: true,
    log: (message) => ctx.engine.info(progressLine(redact(message, options.secretTexts ?? [])), urn),
    ...(seconds > 0 ? { timeoutMs: Math.round(seconds * 1000) } : {}),
    ...(options.secretInputs ? { secretInputs: options.secretInputs } : {}),
  };
}
