/**
 * The table of invalid inputs `invalid-inputs.test.ts` runs: per run, the resource, its bad
 * properties and the rule each message must state (and how Pulumi prints it).
 */
import { E2E_KEYS } from "./workspace";

/** A resource class the program can declare. */
export type Kind = "Service" | "ReadReplicaSet" | "Vpc" | "VpcPeering";

/** One invalid input and what must be said about it. */
export interface Row {
  /** The property the message names; absent for a problem of the configuration. */
  property?: string;
  /** Inputs over the kind's valid ones (null leaves one out). */
  args?: Record<string, unknown>;
  /** The rule the message states, after `has a problem: ` (after the property, when printed by the resource). */
  rule: string | RegExp;
  /**
   * How Pulumi prints it: by default `property X value V has a problem: RULE`; `resource` for a
   * secret input or a property that is not an input, which the provider reports as the
   * resource's problem so that Pulumi has no value to print: `has a problem: property X RULE`.
   */
  printed?: "resource";
}

/** Rows run by one command, on one resource. */
export interface Run {
  title: string;
  kind: Kind;
  /** Inputs the program passes through a local resource: known only at `up`. */
  late?: string[];
  /**
   * Declares the resource twice, with the same inputs: as `<name>-first`, then as the run's
   * resource; the one checked second names the other.
   */
  twice?: boolean;
  /** Stack config set for this run only. */
  config?: Record<string, string>;
  /** Environment of the CLI for this run only (undefined removes a variable). */
  env?: Record<string, string | undefined>;
  /** Inputs the program gives as `pulumi.secret(value)`: no output of preview or up may show their values. */
  secret?: string[];
  /** Extra forms of a secret value Pulumi could print (a number as Go formats it). */
  secretForms?: string[];
  rows: Row[];
}

const CPU = "must be a multiple of 250 from 250 to 64000";
const MEMORY = "must be a whole number from 1 to 1024";
const NODES = "must be a whole number from 1 to 10";
const HA = "must be a whole number from 0 to 2";
/** Stands for the emulator's origin (`http://127.0.0.1:PORT`) in a run's environment. */
export const EMULATOR_ORIGIN = "<emulator origin>";
/** The id of a VPC in eu-west-1, made through the API before the runs (the programs are in us-east-1). */
export const OTHER_REGION_VPC = "<vpc in eu-west-1>";

/**
 * Stands, in a rule, for the `import` option as a refusal's advice writes it: TypeScript's
 * `{ import: "<id>" }` on the dynamic face, the option by name in every language's spelling on
 * the plugin (which serves programs in any language).
 */
export const IMPORT_OPTION = "<import option>";

/** Stands for a service the suite makes before the runs (a read replica set's check looks it up, a fork's source). */
export const EXISTING_SERVICE = "<existing service>";

/** Stands for a stopped (PAUSED) service the suite makes before the runs: nothing can be added to or forked from it. */
export const STOPPED_SERVICE = "<stopped service>";

/** The runs, each one preview (and `up` when late) of one resource. */
export const RUNS: Run[] = [
  {
    title: "a service's sizes, switches, enums and an unknown property",
    kind: "Service",
    rows: [
      { property: "cpuMillis", args: { cpuMillis: 1_000_000 }, rule: CPU },
      { property: "memoryGbs", args: { memoryGbs: 1_000_000 }, rule: MEMORY },
      { property: "replicaCount", args: { replicaCount: 3 }, rule: HA },
      { property: "syncReplicaCount", args: { syncReplicaCount: 7 }, rule: HA },
      { property: "environment", args: { environment: "STAGING" }, rule: "must be PROD or DEV" },
      {
        property: "password",
        args: { password: "short" },
        rule: "(secret) must be at least 8 characters",
        printed: "resource",
      },
      { property: "connectionPooler", args: { connectionPooler: "yes" }, rule: "must be true or false" },
      { property: "paused", args: { paused: "no" }, rule: "must be true or false" },
      {
        property: "serviceType",
        args: { serviceType: "MYSQL" },
        rule: "must be one of TIMESERIESDB, POSTGRES, VECTOR",
      },
      { property: "name", args: { name: "x".repeat(129) }, rule: "must be at most 128 characters" },
      {
        property: "diskGbs",
        args: { diskGbs: 100 },
        rule: "is not an input of Service; did you mean memoryGbs?",
        printed: "resource",
      },
      {
        property: "forkFrom.targetTime",
        args: { forkFrom: { serviceId: "svc-source", strategy: "PITR" } },
        rule: "is required when strategy is PITR",
        printed: "resource",
      },
    ],
  },
  {
    title: "a point-in-time fork at a time without a zone",
    kind: "Service",
    rows: [
      {
        property: "forkFrom.targetTime",
        args: { forkFrom: { serviceId: "svc-source", strategy: "PITR", targetTime: "2026-11-01T10:00:00" } },
        rule: "has no time zone: add one, e.g. 2026-11-01T10:00:00Z (UTC) or 2026-11-01T10:00:00+02:00",
        printed: "resource",
      },
    ],
  },
  {
    title: "a service's other wrong values",
    kind: "Service",
    rows: [
      { property: "cpuMillis", args: { cpuMillis: 1100 }, rule: CPU },
      { property: "memoryGbs", args: { memoryGbs: 0 }, rule: MEMORY },
      { property: "replicaCount", args: { replicaCount: 1.5 }, rule: HA },
      { property: "serviceType", args: { serviceType: null }, rule: "is required" },
      { property: "regionCode", args: { regionCode: "" }, rule: "must not be empty" },
      { property: "name", args: { name: "  " }, rule: "must not be empty" },
      { property: "vpcId", args: { vpcId: "" }, rule: "must not be empty" },
      {
        property: "cpu",
        args: { cpu: 2000 },
        rule: "is not an input of Service; did you mean cpuMillis?",
        printed: "resource",
      },
      {
        property: "forkFrom.strategy",
        args: { forkFrom: { serviceId: "svc-source", strategy: "LATEST" } },
        rule: "must be one of LAST_SNAPSHOT, NOW, PITR",
        printed: "resource",
      },
    ],
  },
  {
    title: "a service missing inputs, a number as text, an output given as an input",
    kind: "Service",
    rows: [
      {
        property: "cpuMillis",
        args: { cpuMillis: "1000" },
        rule: 'must be a number, not text: write it without quotes (or "shared")',
      },
      { property: "memoryGbs", args: { memoryGbs: null }, rule: "is required" },
      { property: "regionCode", args: { regionCode: null }, rule: "is required" },
      {
        property: "status",
        args: { status: "READY" },
        rule: "is an output of Service, not an input",
        printed: "resource",
      },
    ],
  },
  {
    title: "secrets: a short password and a misspelt one, given as pulumi.secret",
    kind: "Service",
    secret: ["password", "pasword"],
    rows: [
      {
        property: "password",
        args: { password: "Zq7-sec" },
        rule: "(secret) must be at least 8 characters",
        printed: "resource",
      },
      {
        property: "pasword",
        args: { pasword: "Typo-secret-Value-91" },
        rule: "is not an input of Service; did you mean password?",
        printed: "resource",
      },
    ],
  },
  {
    title: "secrets: a read replica set's password that is not text, given as pulumi.secret",
    kind: "ReadReplicaSet",
    secret: ["password", "passwd"],
    secretForms: ["9.18273645e+08"],
    rows: [
      {
        property: "password",
        args: { password: 918273645 },
        rule: "(secret) must be a string",
        printed: "resource",
      },
      {
        property: "passwd",
        args: { passwd: "Rrs-typo-secret-66" },
        rule: /is not an input of ReadReplicaSet/,
        printed: "resource",
      },
    ],
  },
  {
    title: "a service with more synchronous replicas than replicas",
    kind: "Service",
    rows: [
      {
        property: "syncReplicaCount",
        args: { replicaCount: 1, syncReplicaCount: 2 },
        rule: "must not exceed replicaCount (1)",
      },
    ],
  },
  {
    title: "a service in a VPC that does not exist, forked from a service that does not exist",
    kind: "Service",
    rows: [
      {
        property: "vpcId",
        args: { vpcId: "vpc-does-not-exist" },
        rule: `VPC vpc-does-not-exist does not exist in project ${E2E_KEYS.projectId}`,
      },
      {
        property: "forkFrom.serviceId",
        args: { forkFrom: { serviceId: "svc-does-not-exist", strategy: "NOW" } },
        rule: `service svc-does-not-exist does not exist in project ${E2E_KEYS.projectId}; give the id of an existing service to fork`,
        printed: "resource",
      },
    ],
  },
  {
    title: "a service in a VPC of another region, forked at a point in time in the future",
    kind: "Service",
    rows: [
      {
        property: "vpcId",
        args: { vpcId: OTHER_REGION_VPC },
        rule: /VPC vpc-\S+ is in region eu-west-1, but the service is in us-east-1 \(regionCode\)/,
      },
      {
        property: "forkFrom.targetTime",
        args: {
          forkFrom: { serviceId: EXISTING_SERVICE, strategy: "PITR", targetTime: "2099-01-01T00:00:00Z" },
        },
        rule: /2099-01-01T00:00:00Z is in the future; a point-in-time fork needs a time between the source's creation \(\S+\) and now/,
        printed: "resource",
      },
    ],
  },
  {
    title: "a service in a project the key cannot reach",
    kind: "Service",
    rows: [
      {
        property: "projectId",
        args: { projectId: "proj-not-mine" },
        rule: /the API key cannot reach project proj-not-mine \(HTTP 403 FORBIDDEN: .*\); give the id of a project/,
      },
    ],
  },
  {
    title: "a read replica set's sizes, a missing service and an unknown property",
    kind: "ReadReplicaSet",
    rows: [
      { property: "nodes", args: { nodes: 100 }, rule: NODES },
      { property: "cpuMillis", args: { cpuMillis: 64_250 }, rule: CPU },
      { property: "memoryGbs", args: { memoryGbs: 2048 }, rule: MEMORY },
      { property: "serviceId", args: { serviceId: null }, rule: "is required" },
      { property: "environment", args: { environment: "QA" }, rule: "must be PROD or DEV" },
      {
        property: "nodeCount",
        args: { nodeCount: 3 },
        rule: "is not an input of ReadReplicaSet; did you mean nodes?",
        printed: "resource",
      },
    ],
  },
  {
    title: "a read replica set without nodes and with an empty name",
    kind: "ReadReplicaSet",
    rows: [
      { property: "nodes", args: { nodes: 0 }, rule: NODES },
      { property: "name", args: { name: "" }, rule: "must not be empty" },
    ],
  },
  {
    title: "a second service of the same name, type and region",
    kind: "Service",
    twice: true,
    rows: [
      {
        property: "name",
        args: { name: "twin-db" },
        rule: /resource case\d+(-first)? of this program is a service of the same name, type, region and fork source; one record cannot belong to both, so up would refuse to create the second/,
      },
    ],
  },
  {
    title: "a service named as one the project already has (of the same type and region)",
    kind: "Service",
    rows: [
      {
        property: "name",
        args: { name: "existing" },
        rule: new RegExp(
          `a service named "existing" \\(POSTGRES, us-east-1\\) already exists in project ${E2E_KEYS.projectId} ` +
            `with id \\S+\\. Adopt it with the resource option ${IMPORT_OPTION}, or choose another name\\. ` +
            "To adopt every record of the same identity instead",
        ),
      },
    ],
  },
  {
    title: "a VPC named as one the project already has (of the same block and region)",
    kind: "Vpc",
    rows: [
      {
        property: "name",
        args: { name: "elsewhere", cidr: "10.30.0.0/16", regionCode: "eu-west-1" },
        rule: new RegExp(
          `a VPC named "elsewhere" \\(10\\.30\\.0\\.0/16, eu-west-1\\) already exists in project ${E2E_KEYS.projectId} with id vpc-\\S+\\.`,
        ),
      },
    ],
  },
  {
    title: "a read replica set of a service that does not exist",
    kind: "ReadReplicaSet",
    rows: [
      {
        property: "serviceId",
        args: { serviceId: "svc-does-not-exist" },
        rule: `service svc-does-not-exist does not exist in project ${E2E_KEYS.projectId}; give the id of an existing service`,
      },
    ],
  },
  {
    title: "a read replica set of a stopped service",
    kind: "ReadReplicaSet",
    rows: [
      {
        property: "serviceId",
        args: { serviceId: STOPPED_SERVICE },
        rule: /service \S+ is PAUSED and this program does not start it; a read replica set needs a running service \(set paused: false on it\)/,
      },
    ],
  },
  {
    title: "a service forked from a stopped service",
    kind: "Service",
    rows: [
      {
        property: "forkFrom.serviceId",
        args: { forkFrom: { serviceId: STOPPED_SERVICE, strategy: "NOW" } },
        rule: /service \S+ is PAUSED and this program does not start it; the API forks a running service only \(set paused: false on it\)/,
        printed: "resource",
      },
    ],
  },
  {
    title: "a service forked from a project the API key cannot reach",
    kind: "Service",
    rows: [
      {
        property: "forkFrom.projectId",
        args: { forkFrom: { serviceId: EXISTING_SERVICE, projectId: "proj-away", strategy: "NOW" } },
        rule: "the API key cannot reach project proj-away (HTTP 403 FORBIDDEN: the API key does not belong to project proj-away); fork from a project the key reaches",
        printed: "resource",
      },
    ],
  },
  {
    title: "a VPC's block, region and name",
    kind: "Vpc",
    rows: [
      {
        property: "cidr",
        args: { cidr: "10.0.0.1/16" },
        rule: "has host bits set: write the block's network address, 10.0.0.0/16",
      },
      { property: "regionCode", args: { regionCode: null }, rule: "is required" },
      {
        property: "region",
        args: { region: "us-east-1" },
        rule: "is not an input of Vpc; did you mean regionCode?",
        printed: "resource",
      },
      { property: "name", args: { name: "" }, rule: "must not be empty" },
    ],
  },
  {
    title: "a VPC block that is not IPv4 CIDR",
    kind: "Vpc",
    rows: [{ property: "cidr", args: { cidr: "fd00::/8" }, rule: "must be an IPv4 block in CIDR notation" }],
  },
  {
    title: "a peering's peer",
    kind: "VpcPeering",
    rows: [
      { property: "peerVpcId", args: { peerVpcId: null }, rule: "is required" },
      { property: "peerAccountId", args: { peerAccountId: 12345 }, rule: "must be a string" },
      {
        property: "peerRegion",
        args: { peerRegion: "us-west-2" },
        rule: "is not an input of VpcPeering; did you mean peerRegionCode?",
        printed: "resource",
      },
      { property: "vpcId", args: { vpcId: "" }, rule: "must not be empty" },
    ],
  },
  {
    title: "a peering of a VPC that does not exist",
    kind: "VpcPeering",
    rows: [
      {
        property: "vpcId",
        args: { vpcId: "vpc-does-not-exist" },
        rule: `VPC vpc-does-not-exist does not exist in project ${E2E_KEYS.projectId}; give the id of an existing VPC of this project`,
      },
    ],
  },
  {
    title: "an API URL over plain http to another host",
    kind: "Vpc",
    env: { MDB_API_URL: "http://api.example.com" },
    rows: [
      {
        rule: /mdb:apiUrl \/ MDB_API_URL: API URL "http:\/\/api\.example\.com" uses plain http:\/\/ to a non-loopback host.*Use https:\/\//,
      },
    ],
  },
  {
    title: "an API URL in stack config that is not a URL, and no API key",
    kind: "Vpc",
    config: { "mdb:apiUrl": "not a url" },
    env: { MDB_PUBLIC_KEY: undefined, MDB_SECRET_KEY: undefined },
    rows: [
      { rule: 'mdb:apiUrl / MDB_API_URL: API URL "not a url" is not a valid URL' },
      {
        rule: /mdb:publicKey is required: set it with `pulumi config set mdb:publicKey <value>` or the environment variable MDB_PUBLIC_KEY/,
      },
      {
        rule: /mdb:secretKey is required: set it with `pulumi config set mdb:secretKey --secret <value>` or the environment variable MDB_SECRET_KEY/,
      },
    ],
  },
  {
    title: "an API URL with a path the API does not serve (/api/v2)",
    kind: "Vpc",
    env: { MDB_API_URL: `${EMULATOR_ORIGIN}/api/v2` },
    rows: [
      {
        rule: /the server at http:\/\/127\.0\.0\.1:\d+\/api\/v2, set by mdb:apiUrl \/ MDB_API_URL, does not answer as the Managed Database API \(GET \S+\/api\/v2\/auth\/info: HTTP 404, .*\); set mdb:apiUrl \/ MDB_API_URL to the API's base URL/,
      },
    ],
  },
  {
    title: "a transport limit in stack config that is not a number",
    kind: "Vpc",
    config: { "mdb:callDeadlineMs": "2m" },
    rows: [
      {
        rule: /stack config mdb:callDeadlineMs is "2m"; it must be a whole number from 1 to \d+ \(milliseconds\)\. Set it with `pulumi config set mdb:callDeadlineMs <value>` or the environment variable MDB_CALL_DEADLINE_MS/,
      },
    ],
  },
  {
    title: "an adoption switch in stack config that is not true or false",
    kind: "Vpc",
    config: { "mdb:adoptExisting": "yes" },
    rows: [
      {
        rule: 'stack config mdb:adoptExisting is "yes"; it must be true or false. Set it with `pulumi config set mdb:adoptExisting true|false` or the environment variable MDB_ADOPT_EXISTING',
      },
    ],
  },
  {
    title: "a wrong secret key",
    kind: "Vpc",
    env: { MDB_SECRET_KEY: "not-the-secret-key" },
    rows: [
      {
        rule: /the API refused the key \(HTTP 401 UNAUTHORIZED: .*\); check mdb:publicKey \/ MDB_PUBLIC_KEY and mdb:secretKey \/ MDB_SECRET_KEY/,
      },
    ],
  },
  {
    title: "a configured project the key cannot reach",
    kind: "Vpc",
    config: { "mdb:projectId": "proj-not-mine" },
    rows: [
      {
        rule: /the API key cannot reach project proj-not-mine, set by mdb:projectId \/ MDB_PROJECT_ID \(HTTP 403 FORBIDDEN: .*\)/,
      },
    ],
  },
  {
    title: "at up: a VPC that does not exist",
    kind: "Service",
    late: ["vpcId"],
    rows: [
      {
        property: "vpcId",
        args: { vpcId: "vpc-made-up" },
        rule: "VPC vpc-made-up does not exist in project",
      },
    ],
  },
  {
    title: "at up: a VPC of another region",
    kind: "Service",
    late: ["vpcId"],
    rows: [
      {
        property: "vpcId",
        args: { vpcId: OTHER_REGION_VPC },
        rule: /VPC vpc-\S+ is in region eu-west-1, but the service is in us-east-1/,
      },
    ],
  },
  {
    title: "at up: a service's CPU beyond the limit",
    kind: "Service",
    late: ["cpuMillis"],
    rows: [{ property: "cpuMillis", args: { cpuMillis: 1_000_000 }, rule: CPU }],
  },
  {
    title: "at up: a short secret password",
    kind: "Service",
    late: ["password"],
    secret: ["password"],
    rows: [
      {
        property: "password",
        args: { password: "Up-sec1" },
        rule: "(secret) must be at least 8 characters",
        printed: "resource",
      },
    ],
  },
  {
    title: "at up: a read replica set of 100 nodes",
    kind: "ReadReplicaSet",
    late: ["nodes"],
    rows: [{ property: "nodes", args: { nodes: 100, serviceId: EXISTING_SERVICE }, rule: NODES }],
  },
];
