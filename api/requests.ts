/**
 * The request bodies of the API, validated strictly: a field the operation does not take fails, and
 * so does a value outside the service's limits. The emulator answers 400 with these messages; the
 * client refuses to send what they reject. Bodies the spec does not show are docs/api.md#requests.
 *
 * Rules that depend on stored state (HA counts against the current ones, a PITR time against the
 * source's creation) are the service's, not the schemas'.
 */
import { z } from "zod";
import { ADDONS, ENVIRONMENTS, FORK_STRATEGIES, type ForkStrategy } from "./enums";
import { atLeastOneRule, whenRule, withJsonRule, withJsonSchema } from "./json-forms";
import {
  CPU_MILLIS,
  HA_REPLICAS,
  MEMORY_GBS,
  NAME_LENGTH,
  PASSWORD_LENGTH,
  REPLICA_SET_NODES,
  SERVICE_NODES,
} from "./limits";
import { notAbove, sharedTogether, sizeOrShared, wholeNumber, type NumberForm } from "./numbers";
import { NOT_BLANK, dateTimeInput, digitsText, notBlankText, textOfLength } from "./strings";

export type { NumberForm };

/** A name of a service, replica set or VPC: any text within the length limit, kept as sent. */
const nameInput = textOfLength(NAME_LENGTH, "must not be empty");
/** A non-empty identifier or code. */
const idInput = z.string().min(1, "must not be empty");
/** A map of arbitrary properties (analytics). */
const properties = z.record(z.string(), z.unknown());
/** A block in CIDR notation, IPv4 or IPv6 (the spec says CIDR, not which family). */
const cidrInput = withJsonSchema(
  z
    .string()
    .refine(
      (s) => z.cidrv4().safeParse(s).success || z.cidrv6().safeParse(s).success,
      "must be a block in CIDR notation, e.g. 10.0.0.0/16",
    ),
  {
    type: "string",
    description: "a block in CIDR notation, IPv4 or IPv6, e.g. 10.0.0.0/16",
    // zod's own patterns of the two checks above.
    anyOf: [z.cidrv4(), z.cidrv6()].map((s) => ({
      pattern: (z.toJSONSchema(s) as { pattern: string }).pattern,
    })),
  },
);

/**
 * Requires at least one of `fields` in an object body; the message names the first. Changes that
 * leave out a field keep its current value.
 */
function atLeastOne<T extends z.ZodObject>(schema: T, fields: readonly (keyof z.output<T> & string)[]) {
  const refined = schema.refine(
    (body) => fields.some((field) => (body as Record<string, unknown>)[field] !== undefined),
    { message: `at least one of ${fields.join(", ")} is required`, path: [fields[0]] },
  );
  return withJsonRule(refined, atLeastOneRule(fields));
}

/**
 * Body of create service; only `name` is required (docs/api.md#requests). The sizes may both be
 * `"shared"` (docs/api.md#shared-resources).
 */
export const CreateServiceRequestSchema = createServiceRequest("either", "either");

/** Body of create service with sizes in form `sizes` and the HA count in form `count`. */
function createServiceRequest(sizes: NumberForm, count: NumberForm) {
  return sharedTogether(
    z.strictObject({
      name: nameInput,
      // Any subset: `time-series` makes a TIMESERIESDB service, `ai` alone a VECTOR one.
      addons: z.array(z.enum(ADDONS)).optional(),
      region_code: idInput.optional(),
      replica_count: wholeNumber(HA_REPLICAS, undefined, count).optional(),
      cpu_millis: sizeOrShared(CPU_MILLIS, sizes).optional(),
      memory_gbs: sizeOrShared(MEMORY_GBS, sizes).optional(),
      environment_tag: z.enum(ENVIRONMENTS).optional(),
    }),
  );
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
export const SetHaRequestSchema = setHaRequest("either");

/**
 * Body of setHA with the counts in form `form`: at least one; `sync_replica_count` not above
 * `replica_count` when both are given (with one, the stored other is the service's check).
 */
function setHaRequest(form: NumberForm) {
  const counts = atLeastOne(
    z.strictObject({
      replica_count: wholeNumber(HA_REPLICAS, undefined, form).optional(),
      sync_replica_count: wholeNumber(HA_REPLICAS, undefined, form).optional(),
    }),
    ["replica_count", "sync_replica_count"],
  );
  return notAbove(
    counts,
    "replica_count",
    "sync_replica_count",
    { ...HA_REPLICAS, max: HA_REPLICAS.max! },
    form,
  );
}
/** Body of setHA, after parsing. */
export type SetHaRequest = z.output<typeof SetHaRequestSchema>;

/** Body of updatePassword. */
export const UpdatePasswordRequestSchema = z.strictObject({
  password: textOfLength(PASSWORD_LENGTH),
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
  const pitrNeedsTime = z
    .strictObject({
      fork_strategy: strategy,
      target_time: dateTimeInput().optional(),
      name: nameInput.optional(),
      cpu_millis: sizeOrShared(CPU_MILLIS, sizes).optional(),
      memory_gbs: sizeOrShared(MEMORY_GBS, sizes).optional(),
      environment_tag: z.enum(ENVIRONMENTS).optional(),
    })
    .refine((b) => b.fork_strategy !== "PITR" || b.target_time !== undefined, {
      message: "is required when fork_strategy is PITR",
      path: ["target_time"],
    });
  return withJsonRule(
    sharedTogether(pitrNeedsTime),
    whenRule("fork_strategy", ["PITR"], { required: ["target_time"] }),
  );
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
  from: dateTimeInput(),
  to: dateTimeInput(),
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
const repeated = withJsonSchema(
  z
    .union([z.string(), z.array(z.string())])
    .transform((value) => (Array.isArray(value) ? value : [value]))
    .pipe(z.array(notBlankText())),
  {
    anyOf: [
      { type: "string", pattern: NOT_BLANK },
      { type: "array", items: { type: "string", pattern: NOT_BLANK } },
    ],
  },
);

/** Query of service logs (current document): every parameter optional. */
export const ServiceLogsQuerySchema = z.strictObject({
  node: digitsText("must be a whole number from 0").transform(Number).optional(),
  cursor: z.string().optional(),
  until: dateTimeInput().optional(),
  since: dateTimeInput().optional(),
  search: repeated.optional(),
  severities: repeated.optional(),
});
/** Query of service logs, after parsing: `search` and `severities` as lists. */
export type ServiceLogsQuery = z.output<typeof ServiceLogsQuerySchema>;

/** A VPC or peering id as the current document types it: a string of digits. */
const digitId = digitsText("must be a string of digits (a VPC id of the vendor's API)");

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
  setHA: setHaRequest("number"),
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
