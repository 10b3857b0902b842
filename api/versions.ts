/**
 * What each published version of the contract says (docs/api.md#divergences), as data: per
 * operation its status, answer and request fields; per record field its presence and type. The
 * versions are the seed (api-spec.md), the vendor's spec-era document (dc9c8fe) and its current one
 * (d7201d6). Facts only: the vendor's text is not copied. The request schemas (requests.ts) and the
 * rows (operations.ts) must agree with these facts; test/conformance/versions.test.ts checks it.
 */
import type { Version } from "./dialects";
import type { OperationId } from "./operations";

/**
 * The JSON type a version gives a field: `digits` a string of digits (`^[0-9]+$`), `size` a string
 * of digits or `"shared"`, `date-time` an RFC 3339 string, `enum` a string from a list.
 */
export type WireType =
  "string" | "digits" | "size" | "integer" | "boolean" | "object" | "array" | "enum" | "date-time";

/** What a version says of one field: its type, and whether it is required. */
export interface FieldFact {
  /** The JSON type. */
  readonly type: WireType;
  /** Required (in a request: must be sent; in a record: always present). */
  readonly required: boolean;
  /** The version marks the field deprecated. */
  readonly deprecated?: boolean;
}

/** What a version says of one operation. */
export interface OperationFacts {
  /** Success status, or `not shown` (the seed shows none). */
  readonly status: 200 | 201 | 202 | 204 | "not shown";
  /** The success body: a record's name, `{message}`, `{code, message}`, `none`, or `not shown`. */
  readonly answer: string;
  /** The request body's fields; `not shown` where the version gives no shape; absent when it takes none. */
  readonly request?: Readonly<Record<string, FieldFact>> | "not shown";
}

/** One operation in every version: the vendor's operation id, and each version's facts (null: it lacks it). */
export type OperationVersions = { readonly vendorId: string } & {
  readonly [V in Version]: OperationFacts | null;
};

const req = (type: WireType): FieldFact => ({ type, required: true });
const opt = (type: WireType): FieldFact => ({ type, required: false });

/** The same facts in both vendor documents. */
function vendorDocs(facts: OperationFacts): Pick<OperationVersions, "specEra" | "current"> {
  return { specEra: facts, current: facts };
}

const SERVICE_CREATE = {
  name: req("string"),
  addons: opt("array"),
  region_code: opt("string"),
  replica_count: opt("integer"),
  cpu_millis: opt("size"),
  memory_gbs: opt("size"),
  environment_tag: opt("enum"),
};
const FORK_CREATE = {
  name: opt("string"),
  cpu_millis: opt("size"),
  memory_gbs: opt("size"),
  fork_strategy: req("enum"),
  target_time: opt("date-time"),
  environment_tag: opt("enum"),
};
const SPEC_ERA_RESIZE = { cpu_millis: req("integer"), memory_gbs: req("integer"), nodes: opt("integer") };
const CURRENT_RESIZE = { cpu_millis: req("digits"), memory_gbs: req("digits") };
const REPLICA_SET_CREATE = {
  name: req("string"),
  nodes: req("integer"),
  cpu_millis: req("integer"),
  memory_gbs: req("integer"),
};
const ENVIRONMENT = { environment: req("enum") };
const HA = { replica_count: opt("integer"), sync_replica_count: opt("integer") };
const MESSAGE = "{message}";

/** Every operation of the table in every version. */
export const OPERATION_VERSIONS: { readonly [Id in OperationId]: OperationVersions } = {
  getAuthInfo: {
    vendorId: "getAuthInfo",
    seed: { status: "not shown", answer: "not shown" },
    specEra: { status: 200, answer: "AuthInfo (apiKey)" },
    current: { status: 200, answer: "AuthInfo (api_key, deprecated apiKey, or oauth)" },
  },
  identify: {
    vendorId: "identifyUser",
    seed: { status: "not shown", answer: "{status}", request: { properties: opt("object") } },
    ...vendorDocs({ status: 200, answer: "{status}", request: { properties: opt("object") } }),
  },
  track: {
    vendorId: "trackEvent",
    seed: { status: "not shown", answer: "not shown", request: "not shown" },
    ...vendorDocs({
      status: 200,
      answer: "{status}",
      request: { event: req("string"), properties: opt("object") },
    }),
  },
  listServices: {
    vendorId: "getServices",
    seed: { status: "not shown", answer: "not shown" },
    ...vendorDocs({ status: 200, answer: "Service[]" }),
  },
  createService: {
    vendorId: "createService",
    seed: { status: "not shown", answer: "not shown", request: "not shown" },
    ...vendorDocs({ status: 202, answer: "Service", request: SERVICE_CREATE }),
  },
  getService: {
    vendorId: "getService",
    seed: { status: "not shown", answer: "not shown" },
    ...vendorDocs({ status: 200, answer: "Service" }),
  },
  deleteService: {
    vendorId: "deleteService",
    seed: { status: "not shown", answer: "not shown" },
    ...vendorDocs({ status: 202, answer: "none" }),
  },
  startService: {
    vendorId: "startService",
    seed: { status: "not shown", answer: "Service" },
    ...vendorDocs({ status: 202, answer: "Service" }),
  },
  stopService: {
    vendorId: "stopService",
    seed: { status: "not shown", answer: "not shown" },
    ...vendorDocs({ status: 202, answer: "Service" }),
  },
  resizeService: {
    vendorId: "resizeService",
    seed: { status: "not shown", answer: "not shown", request: "not shown" },
    specEra: { status: 202, answer: "none", request: SPEC_ERA_RESIZE },
    current: { status: 202, answer: "Service", request: CURRENT_RESIZE },
  },
  updatePassword: {
    vendorId: "updatePassword",
    seed: { status: "not shown", answer: "not shown", request: "not shown" },
    ...vendorDocs({ status: 204, answer: "none", request: { password: req("string") } }),
  },
  setServiceEnvironment: {
    vendorId: "setEnvironment",
    seed: { status: "not shown", answer: "not shown", request: "not shown" },
    ...vendorDocs({ status: 200, answer: MESSAGE, request: ENVIRONMENT }),
  },
  setHA: {
    vendorId: "setHAReplica",
    seed: { status: "not shown", answer: "not shown", request: "not shown" },
    ...vendorDocs({ status: 202, answer: "Service", request: HA }),
  },
  enablePooler: {
    vendorId: "enablePooler",
    seed: { status: "not shown", answer: "not shown" },
    ...vendorDocs({ status: 200, answer: MESSAGE }),
  },
  disablePooler: {
    vendorId: "disablePooler",
    seed: { status: "not shown", answer: MESSAGE },
    ...vendorDocs({ status: 200, answer: MESSAGE }),
  },
  forkService: {
    vendorId: "forkService",
    seed: { status: "not shown", answer: "not shown", request: "not shown" },
    ...vendorDocs({ status: 202, answer: "Service", request: FORK_CREATE }),
  },
  attachToVpc: {
    vendorId: "attachServiceToVPC",
    seed: { status: "not shown", answer: "not shown", request: "not shown" },
    specEra: { status: 202, answer: MESSAGE, request: { vpc_id: req("string") } },
    current: { status: 202, answer: MESSAGE, request: { vpc_id: req("digits") } },
  },
  detachFromVpc: {
    vendorId: "detachServiceFromVPC",
    seed: { status: "not shown", answer: MESSAGE, request: { vpc_id: req("string") } },
    specEra: { status: 202, answer: MESSAGE, request: { vpc_id: req("string") } },
    current: { status: 202, answer: MESSAGE, request: { vpc_id: req("digits") } },
  },
  listReplicaSets: {
    vendorId: "getReplicaSets",
    seed: { status: "not shown", answer: "not shown" },
    ...vendorDocs({ status: 200, answer: "ReadReplicaSet[]" }),
  },
  createReplicaSet: {
    vendorId: "createReplicaSet",
    seed: { status: "not shown", answer: "ReadReplicaSet", request: REPLICA_SET_CREATE },
    ...vendorDocs({ status: 202, answer: "ReadReplicaSet", request: REPLICA_SET_CREATE }),
  },
  deleteReplicaSet: {
    vendorId: "deleteReplicaSet",
    seed: { status: "not shown", answer: "{code, message}" },
    ...vendorDocs({ status: 202, answer: "none" }),
  },
  resizeReplicaSet: {
    vendorId: "resizeReplicaSet",
    seed: { status: "not shown", answer: "not shown", request: "not shown" },
    specEra: { status: 202, answer: "none", request: SPEC_ERA_RESIZE },
    current: { status: 202, answer: MESSAGE, request: CURRENT_RESIZE },
  },
  enableReplicaSetPooler: {
    vendorId: "enableReplicaPooler",
    seed: { status: "not shown", answer: "not shown" },
    ...vendorDocs({ status: 200, answer: MESSAGE }),
  },
  disableReplicaSetPooler: {
    vendorId: "disableReplicaPooler",
    seed: { status: "not shown", answer: "not shown" },
    ...vendorDocs({ status: 200, answer: MESSAGE }),
  },
  setReplicaSetEnvironment: {
    vendorId: "setReplicaEnvironment",
    seed: { status: "not shown", answer: MESSAGE, request: ENVIRONMENT },
    ...vendorDocs({ status: 200, answer: MESSAGE, request: ENVIRONMENT }),
  },
  listVpcs: {
    vendorId: "getVPCs",
    seed: { status: "not shown", answer: "not shown" },
    ...vendorDocs({ status: 200, answer: "VPC[]" }),
  },
  createVpc: {
    vendorId: "createVPC",
    seed: { status: "not shown", answer: "not shown", request: "not shown" },
    ...vendorDocs({
      status: 201,
      answer: "VPC",
      request: { name: req("string"), cidr: req("string"), region_code: req("string") },
    }),
  },
  getVpc: {
    vendorId: "getVPC",
    seed: { status: "not shown", answer: "VPC" },
    ...vendorDocs({ status: 200, answer: "VPC" }),
  },
  renameVpc: {
    vendorId: "renameVPC",
    seed: { status: "not shown", answer: "VPC", request: { name: req("string") } },
    specEra: { status: 200, answer: "VPC", request: { name: req("string") } },
    current: { status: 200, answer: MESSAGE, request: { name: req("string") } },
  },
  deleteVpc: {
    vendorId: "deleteVPC",
    seed: { status: "not shown", answer: "not shown" },
    ...vendorDocs({ status: 204, answer: "none" }),
  },
  listPeerings: {
    vendorId: "getVPCPeerings",
    seed: { status: "not shown", answer: "not shown" },
    ...vendorDocs({ status: 200, answer: "Peering[]" }),
  },
  createPeering: {
    vendorId: "createVPCPeering",
    seed: {
      status: "not shown",
      answer: "Peering",
      request: {
        peer_account_id: req("string"),
        peer_region_code: req("string"),
        peer_vpc_id: req("string"),
      },
    },
    ...vendorDocs({
      status: 201,
      answer: "Peering",
      request: {
        peer_account_id: req("string"),
        peer_region_code: req("string"),
        peer_vpc_id: req("string"),
      },
    }),
  },
  getPeering: {
    vendorId: "getVPCPeering",
    seed: { status: "not shown", answer: "Peering" },
    ...vendorDocs({ status: 200, answer: "Peering" }),
  },
  deletePeering: {
    vendorId: "deleteVPCPeering",
    seed: { status: "not shown", answer: "not shown" },
    ...vendorDocs({ status: 204, answer: "none" }),
  },
  renameService: {
    vendorId: "renameService",
    seed: null,
    specEra: null,
    current: { status: 200, answer: "Service", request: { name: req("string") } },
  },
  listProjects: {
    vendorId: "getProjects",
    seed: null,
    specEra: null,
    current: { status: 200, answer: "Project[]" },
  },
  getServiceLogs: {
    vendorId: "getServiceLogs",
    seed: null,
    specEra: null,
    current: { status: 200, answer: "ServiceLogs" },
  },
  listServiceMetricSeries: {
    vendorId: "getServiceMetricsAvailableSeries",
    seed: null,
    specEra: null,
    current: { status: 200, answer: "string[]" },
  },
  getServiceMetricSeries: {
    vendorId: "getServiceMetricsSeries",
    seed: null,
    specEra: null,
    current: {
      status: 200,
      answer: "MetricSeries[]",
      request: {
        name: req("string"),
        from: req("date-time"),
        to: req("date-time"),
        bucket_seconds: opt("integer"),
        fn: opt("enum"),
        filters: opt("array"),
      },
    },
  },
  logout: {
    vendorId: "logout",
    seed: null,
    specEra: null,
    current: { status: 204, answer: "none", request: { refresh_token: opt("string") } },
  },
};

/** A record field in every version; null where the version's record has no such field. */
export type FieldVersions = { readonly [V in Version]: FieldFact | null };

/**
 * The fields of the Service record that differ between versions. The seed and the spec-era
 * document require no field; the current one requires service_id, project_id, name, region_code,
 * service_type, created, status and resources.
 */
export const SERVICE_FIELD_VERSIONS: Readonly<Record<string, FieldVersions>> = {
  // seed: TIMESERIESDB, POSTGRES, VECTOR; both vendor documents: TIMESCALEDB, POSTGRES, VECTOR.
  service_type: { seed: opt("enum"), specEra: opt("enum"), current: req("enum") },
  paused: { seed: opt("boolean"), specEra: opt("boolean"), current: null },
  vpcEndpoint: {
    seed: opt("object"),
    specEra: opt("object"),
    current: { type: "object", required: false, deprecated: true },
  },
  vpc_endpoint: { seed: null, specEra: null, current: opt("object") },
  metrics: { seed: null, specEra: null, current: opt("object") },
  created: { seed: opt("date-time"), specEra: opt("date-time"), current: req("date-time") },
  resources: { seed: opt("array"), specEra: opt("array"), current: req("array") },
};

/** The service type words of each version. */
export const SERVICE_TYPE_WORDS: { readonly [V in Version]: readonly string[] } = {
  seed: ["TIMESERIESDB", "POSTGRES", "VECTOR"],
  specEra: ["TIMESCALEDB", "POSTGRES", "VECTOR"],
  current: ["TIMESCALEDB", "POSTGRES", "VECTOR"],
};

/** The form of path ids in each version: the current document makes VPC and peering ids digits. */
export const PATH_ID_VERSIONS: Readonly<Record<"vpc_id" | "peering_id" | "replica_set_id", FieldVersions>> = {
  vpc_id: { seed: req("string"), specEra: req("string"), current: req("digits") },
  peering_id: { seed: req("string"), specEra: req("string"), current: req("digits") },
  // The current document adds a minimum length of 3 to replica set ids.
  replica_set_id: { seed: req("string"), specEra: req("string"), current: req("string") },
};

/** Where each version puts the API root (`{base_url}`); the seed leaves it to the reader. */
export const BASE_URLS: { readonly [V in Version]: string } = {
  seed: "not shown (it includes the version prefix)",
  specEra: "https://api.tigerdata.com/public/v1",
  current: "https://console.cloud.tigerdata.com/public/api/v1",
};
