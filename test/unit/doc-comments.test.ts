/**
 * The doc-comment reader `npm run docs` hands the schema generator: a field's doc comment is
 * found along its path through the type a subject names (through optional values, lists and
 * unions), `{@link X}` becomes Markdown, line breaks of a comment are joined (code blocks kept),
 * `@deprecated` is kept apart, and a declaration's doc comment is found by where it is exported.
 * Run on a small source tree made here, and on the package's own Service table.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

interface Doc {
  description: string;
  deprecated?: string;
}
interface Reader {
  field(subject: string, path: string[]): Doc | undefined;
  declaration(value: unknown): Doc | undefined;
}
const { docReader, markdown } = require("../../scripts/docs/doc-comments") as {
  docReader(options: object): Reader;
  markdown(text: string): string;
};

const root = path.resolve(__dirname, "..", "..");

const SAMPLE = `import { z } from "zod";

/**
 * A sample: see {@link other}.
 * Second line.
 *
 * \`\`\`ts
 * keep
 *   this
 * \`\`\`
 */
export const sample = z.object({
  /** The inner object. */
  inner: z
    .object({
      /** Deep field. */
      deep: z.string(),
    })
    .array()
    .optional(),
  /**
   * Old field.
   * @deprecated use inner
   */
  old: z.string().optional(),
  either: z.union([
    z.boolean(),
    z.object({
      /** In the union. */
      picked: z.number(),
    }),
  ]),
});

/** Another. */
export const other = 1;
`;

let dir: string;
let reader: Reader;
const marker = {};

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "doc-comments-"));
  fs.mkdirSync(path.join(dir, "provider", "kit", "fields"), { recursive: true });
  fs.symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"));
  fs.writeFileSync(
    path.join(dir, "tsconfig.build.json"),
    JSON.stringify({
      compilerOptions: { strict: true, module: "commonjs", moduleResolution: "node", types: [] },
    }),
  );
  fs.writeFileSync(
    path.join(dir, "provider", "kit", "fields", "field-table.ts"),
    "export type OutputsOf<T> = T;\n",
  );
  fs.writeFileSync(path.join(dir, "provider", "sample.ts"), SAMPLE);
  reader = docReader({
    root: dir,
    imports: { s: "provider/sample" },
    subjects: {
      sample: { type: "z.output<typeof s.sample>", symbol: { file: "provider/sample.ts", name: "sample" } },
    },
    exported: (value: unknown) =>
      value === marker ? { file: "provider/sample.ts", name: "other" } : undefined,
  });
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("doc comments", () => {
  it("of a subject: links as code, lines joined, a code block kept", () => {
    expect(reader.field("sample", [])?.description).toBe(
      "A sample: see `other`. Second line.\n\n```ts\nkeep\n  this\n```",
    );
  });

  it("of fields along a path, through optional values, lists and unions", () => {
    expect(reader.field("sample", ["inner"])?.description).toBe("The inner object.");
    expect(reader.field("sample", ["inner", "deep"])?.description).toBe("Deep field.");
    expect(reader.field("sample", ["either", "picked"])?.description).toBe("In the union.");
    expect(reader.field("sample", ["nothing"])).toBeUndefined();
  });

  it("keeps @deprecated apart", () => {
    expect(reader.field("sample", ["old"])).toEqual({ description: "Old field.", deprecated: "use inner" });
  });

  it("of a declaration, by where its value is exported", () => {
    expect(reader.declaration(marker)).toEqual({ description: "Another." });
    expect(reader.declaration({})).toBeUndefined();
  });

  it("refuses a subject it does not know", () => {
    expect(() => reader.field("other", ["x"])).toThrow(/no doc subject other/);
  });

  it("markdown(): a link with a label keeps the label", () => {
    expect(markdown("see {@link Service | the service}\nand more")).toBe("see the service and more");
  });
});
