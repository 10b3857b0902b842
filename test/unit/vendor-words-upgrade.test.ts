/**
 * `addVendorWords` on a server made before the vendor's database words, with a crash half-way:
 * `postgres`, the database whose words mean "done", gets them last, so a start cut short leaves
 * it without them and the next start finishes the others. The databases here are a fake that
 * records what each committed; the real server is in integration/vendor-words.test.ts.
 */
import type { SqlClient } from "../../emulator/databases/engine";
import { addVendorWords, type AdminOn } from "../../emulator/databases/vendor-words";

/** A server of `names` without the words; `failIn` fails its first transaction in that database. */
function server(names: string[], failIn?: string) {
  const words = new Map(names.map((name) => [name, false]));
  let failing = failIn;
  const adminOn: AdminOn = async (database, use) => {
    let pending = false;
    const client: SqlClient = {
      connect: async () => undefined,
      end: async () => undefined,
      query: async (sql: string) => {
        if (sql.includes("pg_namespace")) return { rows: words.get(database) ? [{ "?column?": 1 }] : [] };
        if (sql.includes("pg_database"))
          return { rows: [...words.keys()].sort().map((datname) => ({ datname })) };
        if (sql === "BEGIN") pending = true;
        else if (sql === "ROLLBACK") pending = false;
        else if (sql === "COMMIT") words.set(database, pending);
        else if (sql.startsWith("CREATE EVENT TRIGGER") && failing === database) {
          failing = undefined;
          throw new Error("the emulator was killed");
        }
        return { rows: [] };
      },
    };
    return use(client);
  };
  return { words, adminOn };
}

test("a server without the words gets them in every database, postgres last", async () => {
  const { words, adminOn } = server(["postgres", "template1", "tsdb", "app"]);
  expect(await addVendorWords(adminOn, "tsdbadmin")).toEqual(["app", "template1", "tsdb", "postgres"]);
  expect([...words.values()]).toEqual([true, true, true, true]);
  expect(await addVendorWords(adminOn, "tsdbadmin")).toEqual([]);
});

test("cut short in one database, the next start adds the rest: postgres never has them before the others", async () => {
  const { words, adminOn } = server(["postgres", "template1", "tsdb"], "tsdb");
  await expect(addVendorWords(adminOn, "tsdbadmin")).rejects.toThrow("the emulator was killed");
  expect(Object.fromEntries(words)).toEqual({ postgres: false, template1: true, tsdb: false });
  expect(await addVendorWords(adminOn, "tsdbadmin")).toEqual(["tsdb", "postgres"]);
  expect([...words.values()]).toEqual([true, true, true]);
});
