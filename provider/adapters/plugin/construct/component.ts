/**
 * `mdb:index:ProductionDatabase` as the plugin builds it for a program in any language
 * (Construct): the native entry's component (`../../../native.ts`, the package's own component
 * with the native types as its children), so the one component serves both faces.
 */
import type { ProductionDatabaseRegistered } from "../../../components/production-database-args";
import { ProductionDatabase } from "../../../native";

/** The native {@link ProductionDatabase}, its registered outputs readable by the Construct answer. */
export class NativeProductionDatabase extends ProductionDatabase {
  /** What it registered as its outputs: the state the engine's Construct answers with. */
  get outputs(): ProductionDatabaseRegistered {
    return this.registered;
  }
}
