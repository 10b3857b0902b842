/**
 * The request bodies of the API, validated strictly: a field the operation does not take fails, and
 * so does a value outside the service's limits. The emulator answers 400 with these messages; the
 * client refuses to send what they reject. Bodies the spec does not show are docs/api.md#requests.
 *
 * Rules that depend on stored state (HA counts against the current ones, a PITR time against the
 * source's creation) are the service's, not the schemas'.
 */
import { z } from "zod";
import { ADDONS, ENVIRONMENTS, FORK_STRATEGIES, SHARED, type ForkStrategy, type Shared } from "./enums";
import {
  CPU_MILLIS,
  HA_REPLICAS,
  MEMORY_GBS,
  NAME_LENGTH,
  PASSWORD_LENGTH,
  REPLICA_SET_NODES,
  SERVICE_NODES,
  describeRange,
  inRange,
  type WholeRange,
} from "./limits";

/** The number a JSON number or a string of digits stands for; NaN for anything else. */
function wholeValue(value: number | string): number {
  return typeof value === "number" ? value : /^\d+$/.test(value) ? Number(value) : NaN;
}

/**
 * The JSON forms a whole number may take on the wire (docs/api.md#numbers): `either` (a number or
 * a string of digits, what the seed dialect takes), `string` (a string of digits only, where the
 * vendor's current document types the field a string) or `number` (where it types it an integer).
 */
export type NumberForm = "either" | "string" | "number";

/**
 * A whole number within `range`, in the JSON `form` given (docs/api.md#numbers). The parsed value
 * is a number; a bad value gets one message, naming the rule, with `hint` after it when given.
 */
function wholeNumber(range: WholeRange, hint?: string, form: NumberForm = "either") {
  // Refusing "shared", it only ever yields numbers.
  return sizeInput(range, "refuse", hint, form) as z.ZodType<number, number | string>;
}

/**
 * A size of create service or fork: a whole number within `range` (as {@link wholeNumber}), or
 * `"shared"` for a shared-resource service (docs/api.md#shared-resources), kept as `"shared"`.
 */
function sizeOrShared(range: WholeRange, form: NumberForm = "either") {
  return sizeInput(range, "accept", undefined, form);
}

const FORM_WORDS: Record<NumberForm, string> = {
  either: "as a number or a string of digits",
  string: "as a string of digits",
  number: "as a JSON number",
};

/**
 * A whole number within `range`, or `"shared"` when `shared` is "accept". Where it is refused, a
 * `"shared"` gets a message of its own: create and fork take it, so a client may well send it.
 */
function sizeInput(
  range: WholeRange,
  shared: "accept" | "refuse",
  hint?: string,
  form: NumberForm = "either",
) {
  const numbers = `${describeRange(range)}, ${FORM_WORDS[form]}`;
  const rule = `must be ${numbers}${shared === "accept" ? `, or "${SHARED}"` : ""}${hint ? ` (${hint})` : ""}`;
  const refusal = `"${SHARED}" is taken by create service and fork only; here it must be ${numbers}`;
  const json =
    form === "string"
      ? z.string({ error: rule })
      : form === "number"
        ? z.number({ error: rule })
        : z.union([z.number(), z.string()], { error: rule });
  return (json as z.ZodType<number | string>).transform((value, ctx): number | Shared => {
    if (value === SHARED && shared === "accept") return SHARED;
    const n = typeof value === "string" && form === "number" ? NaN : wholeValue(value);
    if (inRange(n, range)) return n;
    ctx.addIssue({ code: "custom", message: value === SHARED ? refusal : rule, input: value });
    return z.NEVER;
  });
}

/**
 * Requires `"shared"` for both sizes or for neither: a service shares CPU and memory together, and
 * a size left out would otherwise take a dedicated default. The message names the other field.
 */
function sharedTogether(
  body: { cpu_millis?: number | Shared; memory_gbs?: number | Shared },
  ctx: z.RefinementCtx,
) {
  const cpu = body.cpu_millis === SHARED;
  const memory = body.memory_gbs === SHARED;
  if (cpu === memory) return;
  const [field, other] = cpu ? ["memory_gbs", "cpu_millis"] : ["cpu_millis", "memory_gbs"];
  ctx.addIssue({
    code: "custom",
    path: [field],
    message: `must be "${SHARED}" too when ${other} is "${SHARED}" (a service shares both or neither)`,
  });
}

/** A name of a service, replica set or VPC: any text within the length limit, kept as sent. */
const nameInput = z
  .string()
  .min(NAME_LENGTH.min, "must not be empty")
  .max(NAME_LENGTH.max!, `must be at most ${NAME_LENGTH.max} characters`);
/** A non-empty identifier or code. */
const idInput = z.string().min(1, "must not be empty");
/** A map of arbitrary properties (analytics). */
const properties = z.record(z.string(), z.unknown());
/** A block in CIDR notation, IPv4 or IPv6 (the spec says CIDR, not which family). */
const cidrInput = z
  .string()
  .refine(
    (s) => z.cidrv4().safeParse(s).success || z.cidrv6().safeParse(s).success,
    "must be a block in CIDR notation, e.g. 10.0.0.0/16",
  );

/**
 * Requires at least one of `fields` in an object body; the message names the first. Changes that
 * leave out a field keep its current value.
 */
function atLeastOne<T extends z.ZodObject>(schema: T, fields: readonly (keyof z.output<T> & string)[]) {
  return schema.refine(
    (body) => fields.some((field) => (body as Record<string, unknown>)[field] !== undefined),
    { message: `at least one of ${fields.join(", ")} is required`, path: [fields[0]] },
  );
}

/**
 * Body of create service; only `name` is required (docs/api.md#requests). The sizes may both be
 * `"shared"` (docs/api.md#shared-resources).
 */
export const CreateServiceRequestSchema = createServiceRequest("either", "either");

/** Body of create service with sizes in form `sizes` and the HA count in form `count`. */
function createServiceRequest(sizes: NumberForm, count: NumberForm) {
  return z
    .strictObject({
      name: nameInput,
      // Any subset: `time-series` makes a TIMESERIESDB service, `ai` alone a VECTOR one.
      addons: z.array(z.enum(ADDONS)).optional(),
      region_code: idInput.optional(),
      replica_count: wholeNumber(HA_REPLICAS, undefined, count).optional(),
      cpu_millis: sizeOrShared(CPU_MILLIS, sizes).optional(),
      memory_gbs: sizeOrShared(MEMORY_GBS, sizes).optional(),
      environment_tag: z.enum(ENVIRONMENTS).optional(),
    })
    .superRefine(sharedTogether);
}
/** Body of create service, after parsing. */
export type CreateServiceRequest = z.output<typeof CreateServiceRequestSchema>;

/**
 * Body of resize service: at least one of the sizes; the other stays as it is. `nodes`, which the
 * vendor's spec-era resize input shares with replica sets, is taken when it restates the service's
 * one node.
 */
export const ResizeServiceRequestSchema = atLeastOne(
  z.strictObject({
    cpu_millis: wholeNumber(CPU_MILLIS).optional(),
    memory_gbs: wholeNumber(MEMORY_GBS).optional(),
    nodes: wholeNumber(
      SERVICE_NODES,
      "a service has one node: HA replicas are setHA's, read capacity a read replica set's",
    ).optional(),
  }),
  ["cpu_millis", "memory_gbs"],
);
/** Body of resize service, after parsing. */
export type ResizeServiceRequest = z.output<typeof ResizeServiceRequestSchema>;

/** Body of setHA: at least one of the two counts; the other stays as it is. */
export const SetHaRequestSchema = atLeastOne(
  z.strictObject({
    replica_count: wholeNumber(HA_REPLICAS).optional(),
    sync_replica_count: wholeNumber(HA_REPLICAS).optional(),
  }),
  ["replica_count", "sync_replica_count"],
);
/** Body of setHA, after parsing. */
export type SetHaRequest = z.output<typeof SetHaRequestSchema>;

/** Body of updatePassword. */
export const UpdatePasswordRequestSchema = z.strictObject({
  password: z.string().min(PASSWORD_LENGTH.min, `must be at least ${PASSWORD_LENGTH.min} characters`),
});
/** Body of updatePassword, after parsing. */
export type UpdatePasswordRequest = z.output<typeof UpdatePasswordRequestSchema>;

/** Body of setEnvironment, for a service and for a replica set. */
export const SetEnvironmentRequestSchema = z.strictObject({
  environment: z.enum(ENVIRONMENTS),
});
/** Body of setEnvironment, after parsing. */
export type SetEnvironmentRequest = z.output<typeof SetEnvironmentRequestSchema>;

/** Body of attachToVPC and detachFromVPC. */
export const VpcAttachmentRequestSchema = z.strictObject({
  vpc_id: idInput,
});
/** Body of attachToVPC and detachFromVPC, after parsing. */
export type VpcAttachmentRequest = z.output<typeof VpcAttachmentRequestSchema>;

/**
 * Body of forkService: every field optional (the strategy is NOW when absent); `target_time` is
 * required for PITR. The sizes may both be `"shared"`, as in create service.
 */
export const ForkServiceRequestSchema = forkServiceRequest(z.enum(FORK_STRATEGIES).optional(), "either");

/** Body of forkService with the strategy schema given and sizes in form `sizes`. */
function forkServiceRequest(strategy: z.ZodType<ForkStrategy | undefined>, sizes: NumberForm) {
  return z
    .strictObject({
      fork_strategy: strategy,
      target_time: z.iso.datetime({ offset: true }).optional(),
      name: nameInput.optional(),
      cpu_millis: sizeOrShared(CPU_MILLIS, sizes).optional(),
      memory_gbs: sizeOrShared(MEMORY_GBS, sizes).optional(),
      environment_tag: z.enum(ENVIRONMENTS).optional(),
    })
    .refine((b) => b.fork_strategy !== "PITR" || b.target_time !== undefined, {
      message: "is required when fork_strategy is PITR",
      path: ["target_time"],
    })
    .superRefine(sharedTogether);
}
/** Body of forkService, after parsing. */
export type ForkServiceRequest = z.output<typeof ForkServiceRequestSchema>;

/** Body of create read replica set. */
export const CreateReplicaSetRequestSchema = z.strictObject({
  name: nameInput,
  nodes: wholeNumber(REPLICA_SET_NODES),
  cpu_millis: wholeNumber(CPU_MILLIS),
  memory_gbs: wholeNumber(MEMORY_GBS),
});
/** Body of create read replica set, after parsing. */
export type CreateReplicaSetRequest = z.output<typeof CreateReplicaSetRequestSchema>;

/** Body of resize read replica set: at least one of the three; the others stay as they are. */
export const ResizeReplicaSetRequestSchema = atLeastOne(
  z.strictObject({
    cpu_millis: wholeNumber(CPU_MILLIS).optional(),
    memory_gbs: wholeNumber(MEMORY_GBS).optional(),
    nodes: wholeNumber(REPLICA_SET_NODES).optional(),
  }),
  ["cpu_millis", "memory_gbs", "nodes"],
);
/** Body of resize read replica set, after parsing. */
export type ResizeReplicaSetRequest = z.output<typeof ResizeReplicaSetRequestSchema>;

/** Body of create VPC; the region is the service's default one when absent. */
export const CreateVpcRequestSchema = z.strictObject({
  name: nameInput,
  cidr: cidrInput,
  region_code: idInput.optional(),
});
/** Body of create VPC, after parsing. */
export type CreateVpcRequest = z.output<typeof CreateVpcRequestSchema>;

/** Body of rename VPC. */
export const RenameVpcRequestSchema = z.strictObject({
  name: nameInput,
});
/** Body of rename VPC, after parsing. */
export type RenameVpcRequest = z.output<typeof RenameVpcRequestSchema>;

/** Body of create VPC peering. */
export const CreatePeeringRequestSchema = z.strictObject({
  peer_account_id: idInput,
  peer_region_code: idInput,
  peer_vpc_id: idInput,
});
/** Body of create VPC peering, after parsing. */
export type CreatePeeringRequest = z.output<typeof CreatePeeringRequestSchema>;

/** Body of analytics identify. */
export const IdentifyRequestSchema = z.strictObject({
  properties: properties.optional(),
});
/** Body of analytics identify, after parsing. */
export type IdentifyRequest = z.output<typeof IdentifyRequestSchema>;

/** Body of analytics track. */
export const TrackRequestSchema = z.strictObject({
  event: z.string().min(1, "must not be empty"),
  properties: properties.optional(),
});
/** Body of analytics track, after parsing. */
export type TrackRequest = z.output<typeof TrackRequestSchema>;

/** Body of renameService (the vendor's addition, served in both dialects). */
export const RenameServiceRequestSchema = z.strictObject({
  name: nameInput,
});
/** Body of renameService, after parsing. */
export type RenameServiceRequest = z.output<typeof RenameServiceRequestSchema>;

/** Body of logout (current document): the OAuth refresh token to revoke, when the caller has one. */
export const LogoutRequestSchema = z.strictObject({
  refresh_token: z.string().optional(),
});
/** Body of logout, after parsing. */
export type LogoutRequest = z.output<typeof LogoutRequestSchema>;

/** Aggregation functions of a metric series query (current document). */
export const METRIC_FUNCTIONS = [
  "RATE",
  "INCREASE",
  "SUM",
  "AVG",
  "MIN",
  "MAX",
  "COUNT",
  "P50",
  "P90",
  "P99",
  "LAST",
] as const;

/** Smallest aggregation bucket of a metric series query, in seconds. */
export const MIN_METRIC_BUCKET_SECONDS = 60;

/** Body of the metric series query (current document, a preview operation): no other field taken. */
export const MetricSeriesRequestSchema = z.strictObject({
  name: z.string().min(1, "must not be empty"),
  from: z.iso.datetime({ offset: true }),
  to: z.iso.datetime({ offset: true }),
  bucket_seconds: z
    .number()
    .int()
    .min(
      MIN_METRIC_BUCKET_SECONDS,
      `must be a whole number of seconds, at least ${MIN_METRIC_BUCKET_SECONDS}`,
    )
    .optional(),
  fn: z.enum(METRIC_FUNCTIONS).optional(),
  filters: z
    .array(
      z.strictObject({
        key: z.string().min(1, "must not be empty"),
        value: z.string().min(1, "must not be empty"),
      }),
    )
    .optional(),
});
/** Body of the metric series query, after parsing. */
export type MetricSeriesRequest = z.output<typeof MetricSeriesRequestSchema>;

/** A repeatable query parameter: one value or several (`?search=a&search=b`), read as a list. */
const repeated = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value : [value]))
  .pipe(z.array(z.string().regex(/\S/, "must not be blank")));

/** Query of service logs (current document): every parameter optional. */
export const ServiceLogsQuerySchema = z.strictObject({
  node: z.string().regex(/^\d+$/, "must be a whole number from 0").transform(Number).optional(),
  cursor: z.string().optional(),
  until: z.iso.datetime({ offset: true }).optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  search: repeated.optional(),
  severities: repeated.optional(),
});
/** Query of service logs, after parsing: `search` and `severities` as lists. */
export type ServiceLogsQuery = z.output<typeof ServiceLogsQuerySchema>;

/** A VPC or peering id as the current document types it: a string of digits. */
const digitId = z.string().regex(/^[0-9]+$/, "must be a string of digits (a VPC id of the vendor's API)");

/**
 * The request bodies as the vendor's current document (d7201d6) types them, where it is stricter
 * than the seed's (docs/api.md#divergences); the emulator's `vendor` dialect validates with these,
 * and the client can too: whatever they accept, the seed's schemas accept.
 *
 * - create service and fork: sizes strings (digits or `"shared"`), not numbers; fork needs
 *   `fork_strategy`;
 * - resize service and resize replica set: both sizes required, strings of digits (the current
 *   document's ResizeInput no longer lists `nodes`; replica set resize still takes it, the seed's);
 * - create replica set and setHA: integers, not strings;
 * - create VPC: `region_code` required; attach and detach: `vpc_id` a string of digits.
 */
export const CURRENT_REQUESTS = {
  createService: createServiceRequest("string", "number"),
  forkService: forkServiceRequest(z.enum(FORK_STRATEGIES), "string"),
  resizeService: z.strictObject({
    cpu_millis: wholeNumber(CPU_MILLIS, undefined, "string"),
    memory_gbs: wholeNumber(MEMORY_GBS, undefined, "string"),
  }),
  resizeReplicaSet: z.strictObject({
    cpu_millis: wholeNumber(CPU_MILLIS, undefined, "string"),
    memory_gbs: wholeNumber(MEMORY_GBS, undefined, "string"),
    nodes: wholeNumber(REPLICA_SET_NODES).optional(),
  }),
  createReplicaSet: z.strictObject({
    name: nameInput,
    nodes: wholeNumber(REPLICA_SET_NODES, undefined, "number"),
    cpu_millis: wholeNumber(CPU_MILLIS, undefined, "number"),
    memory_gbs: wholeNumber(MEMORY_GBS, undefined, "number"),
  }),
  setHA: atLeastOne(
    z.strictObject({
      replica_count: wholeNumber(HA_REPLICAS, undefined, "number").optional(),
      sync_replica_count: wholeNumber(HA_REPLICAS, undefined, "number").optional(),
    }),
    ["replica_count", "sync_replica_count"],
  ),
  createVpc: z.strictObject({ name: nameInput, cidr: cidrInput, region_code: idInput }),
  attachToVpc: z.strictObject({ vpc_id: digitId }),
  detachFromVpc: z.strictObject({ vpc_id: digitId }),
} as const;

/**
 * Formats zod issues as `field: message` lines, the form of 400 answers and of the client's request
 * validation, so every failure names the offending field.
 */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "(body)"}: ${issue.message}`)
    .join("; ");
}
