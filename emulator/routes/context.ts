/** What the API routes receive. */
import type { Credentials } from "../auth";
import type { Speech } from "../dialect";
import type { Model } from "../model";

/** Options of the API route plugin. */
export interface RouteContext {
  /** The emulated service. */
  model: Model;
  /** The accepted key (auth info describes it). */
  credentials: Credentials;
  /** When the emulator started, ISO 8601 (the key's creation time in auth info). */
  startedAt: string;
  /** The dialect spoken (docs/api.md#dialects): which operations are served, and in which words. */
  speech: Speech;
}
