/**
 * `mdb:index:ProductionDatabase` as the plugin builds it for a program in any language: the
 * package's own component (`components/production-database.ts`), with the native types as its
 * children instead of the dynamic classes, so the one component serves both faces.
 */
import { type ChildClasses, ProductionDatabase } from "../../../components/production-database";
import type { ProductionDatabaseRegistered } from "../../../components/production-database-args";
import { nativeClasses } from "./classes";

/** The native classes, made once. */
let classes: ChildClasses | undefined;

/** {@link ProductionDatabase} whose children are the plugin's native types. */
export class NativeProductionDatabase extends ProductionDatabase {
  protected static override get children(): ChildClasses {
    classes ??= nativeClasses();
    return classes;
  }

  /** What it registered as its outputs: the state the engine's Construct answers with. */
  get outputs(): ProductionDatabaseRegistered {
    return this.registered;
  }
}
