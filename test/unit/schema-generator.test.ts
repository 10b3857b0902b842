/**
 * The schema generator on declarations made here: what each zod type becomes (primitives, whole
 * numbers, enums and a named literal, lists, maps, unions, named objects), which inputs are
 * required, what a doc comment's `@deprecated` becomes, and the refusals that keep the schema
 * honest (a nested object without a name, two different types under one name).
 */
import { z } from "zod";
import type { DocSource } from "../../provider/adapters/plugin/schema/docs";
import { packageSchema } from "../../provider/adapters/plugin/schema/package";
import type { SchemaSources } from "../../provider/adapters/plugin/schema/sources";
import { type ResourceDefinition, rowsOf } from "../../provider/kit/fields/field-table";
import { integer, named, plain, secret } from "../../provider/kit/fields/type-facts";

const { input, name, output, setting } = rowsOf<{ id: string }>();

const colour = named("Colour", z.enum(["RED", "BLUE"]));
const shape = named("Shape", z.object({ sides: integer(z.number()), label: z.string().optional() }));

const FIELDS = {
  widgetId: output(z.string(), { stable: true }),
  name: name(z.string(), { update: ["renameVpc"] }),
  size: input(z.union([integer(z.number()), named("Huge", z.literal("huge"))]), {
    replace: "sizes are fixed",
  }),
  colour: input(colour.default("RED"), { update: ["renameVpc"] }),
  tone: input(z.union([z.string(), named("Tone", z.enum(["WARM", "COLD"]))]).default("WARM"), {
    update: ["renameVpc"],
  }),
  shape: input(shape.optional(), { replace: true }),
  tags: input(z.record(z.string(), z.string()).optional(), { update: ["renameVpc"] }),
  note: setting(z.string().optional(), { secret: true }),
  ratio: output(z.number().optional()),
  corners: output(z.array(shape)),
  extra: output(z.unknown()),
};

const WIDGET: ResourceDefinition<typeof FIELDS, "widgetId"> = {
  kind: "widget",
  typeName: "Widget",
  label: "widget",
  summary: "A widget.",
  id: { label: "widget", parts: ["widgetId"] },
  naming: "generated",
  fields: FIELDS,
};

/** Docs that name what they describe, and one deprecated field. */
const DOCS: DocSource = {
  field: (subject, path) =>
    path.join(".") === "ratio"
      ? { description: "Old ratio.", deprecated: "use corners" }
      : { description: `${subject} ${path.join(".") || "itself"}` },
  declaration: (value) => (value === shape ? { description: "A shape." } : undefined),
};

const sources = (over: Partial<SchemaSources> = {}): SchemaSources => ({
  resources: [WIDGET as never],
  functions: {
    findWidget: {
      args: z.union([
        z.object({ id: z.string(), name: z.undefined().optional() }),
        z.object({ name: z.string() }),
      ]),
      result: z.object({ widgets: z.array(z.string()) }),
    },
    listWidgets: { result: z.array(shape), listKey: "widgets" },
  },
  component: {
    name: "Bundle",
    args: z.object({ count: plain(integer(z.number()).default(1)), password: secret(z.string()) }),
    outputs: z.object({ uri: secret(z.string()) }),
  },
  config: {
    keys: z.object({ token: secret(z.string()).optional() }),
    envVar: (key) => `W_${key.toUpperCase()}`,
  },
  ...over,
});

const generate = (over?: Partial<SchemaSources>) => packageSchema(sources(over), { version: "1.2.3" }, DOCS);

describe("a resource", () => {
  const widget = generate().resources["mdb:index:Widget"];

  it("types each row: whole numbers, enums, a named literal in a union, maps, lists of objects, Any", () => {
    // Beside a whole number, the named literal is plain text: Go's generator would take the
    // whole union for text (a "relaxed enum") if it held an enum.
    expect(widget.inputProperties?.size).toMatchObject({
      oneOf: [{ type: "integer" }, { type: "string" }],
      replaceOnChanges: true,
    });
    // A union's default is the provider's to fill in: Go's generator cannot write one.
    expect(widget.inputProperties?.tone).toEqual({
      oneOf: [{ type: "string" }, { $ref: "#/types/mdb:index:Tone" }],
      description: "resource:widget tone",
    });
    expect(widget.inputProperties?.colour).toMatchObject({
      $ref: "#/types/mdb:index:Colour",
      default: "RED",
    });
    expect(widget.inputProperties?.tags).toMatchObject({
      type: "object",
      additionalProperties: { type: "string" },
    });
    expect(widget.properties?.corners).toMatchObject({
      type: "array",
      items: { $ref: "#/types/mdb:index:Shape" },
    });
    expect(widget.properties?.extra).toMatchObject({ $ref: "pulumi.json#/Any" });
  });

  it("requires the inputs without a default (a generated name is not), and lists the outputs always there", () => {
    expect(widget.requiredInputs).toEqual(["size"]);
    expect(widget.required).toEqual(["widgetId", "name", "size", "colour", "tone", "corners", "extra"]);
  });

  it("marks secrets, carries docs and a deprecation", () => {
    expect(widget.inputProperties?.note).toMatchObject({ secret: true, description: "resource:widget note" });
    expect(widget.properties?.note.secret).toBe(true);
    expect(widget.properties?.ratio).toMatchObject({
      description: "Old ratio.",
      deprecationMessage: "use corners",
    });
    expect(widget.description).toBe("resource:widget itself");
  });

  it("adds its named types once, with their descriptions and required fields", () => {
    const { types } = generate();
    expect(types["mdb:index:Shape"]).toEqual({
      description: "A shape.",
      type: "object",
      properties: {
        sides: { type: "integer", description: "resource:widget shape.sides" },
        label: { type: "string", description: "resource:widget shape.label" },
      },
      required: ["sides"],
    });
    expect(types["mdb:index:Colour"]).toMatchObject({
      type: "string",
      enum: [{ value: "RED" }, { value: "BLUE" }],
    });
    expect(types["mdb:index:Tone"]).toMatchObject({
      type: "string",
      enum: [{ value: "WARM" }, { value: "COLD" }],
    });
    expect(types).not.toHaveProperty(["mdb:index:Huge"]);
  });
});

describe("functions, the component and the configuration", () => {
  const schema = generate();

  it("merge a union of arguments: a field is required only when every member requires it", () => {
    expect(schema.functions["mdb:index:findWidget"].inputs).toMatchObject({
      properties: { id: { type: "string" }, name: { type: "string" } },
    });
    expect(schema.functions["mdb:index:findWidget"].inputs?.required).toBeUndefined();
  });

  it("give a list under its listKey", () => {
    expect(schema.functions["mdb:index:listWidgets"].outputs).toMatchObject({
      properties: { widgets: { type: "array", items: { $ref: "#/types/mdb:index:Shape" } } },
      required: ["widgets"],
    });
    expect(schema.functions["mdb:index:listWidgets"].inputs).toBeUndefined();
  });

  it("make the component a component with plain, secret and default inputs", () => {
    expect(schema.resources["mdb:index:Bundle"]).toMatchObject({
      isComponent: true,
      inputProperties: { count: { type: "integer", plain: true, default: 1 }, password: { secret: true } },
      requiredInputs: ["password"],
      properties: { uri: { secret: true } },
    });
  });

  it("give each configuration key its variable, and no secret among the provider's outputs", () => {
    expect(schema.config.variables.token).toMatchObject({
      secret: true,
      defaultInfo: { environment: ["W_TOKEN"] },
    });
    expect(schema.provider.properties).toEqual({});
  });
});

describe("refusals", () => {
  it("a nested object without a name", () => {
    const bad = { ...WIDGET, fields: { ...FIELDS, box: output(z.object({ w: z.number() })) } };
    expect(() => generate({ resources: [bad as never] })).toThrow(
      /resource:widget box: a nested object needs a name for the schema/,
    );
  });

  it("two different types under one name", () => {
    const other = named("Shape", z.object({ sides: z.string() }));
    const bad = { ...WIDGET, fields: { ...FIELDS, outline: output(other) } };
    expect(() => generate({ resources: [bad as never] })).toThrow(/two different types are named Shape/);
  });

  it("a list result without a listKey", () => {
    expect(() => generate({ functions: { listWidgets: { result: z.array(shape) } } })).toThrow(
      /needs a listKey/,
    );
  });
});
