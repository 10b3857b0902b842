// The one program of test/e2e/invalid-inputs.test.ts, so that one stack serves every row of its
// table. MDB_E2E_CASE holds a JSON list of resources to declare: each takes valid inputs of its
// kind, overridden by the row's `args` (null removes an input, as a program that leaves it out),
// names in `late` are passed through a local resource first, so their value is known only once
// `pulumi up` runs, like an id that another resource creates, and names in `secret` are given as
// `pulumi.secret(value)`. With MDB_E2E_FACE=native each resource is the native plugin's type,
// registered as any language's SDK registers it (the stack's Pulumi.yaml names the plugin).
import * as pulumi from "@pulumi/pulumi";
import * as mdb from "pulumi-managed-db";

type Kind = "Service" | "ReadReplicaSet" | "Vpc" | "VpcPeering";

/** One resource of the case. */
interface Declared {
  kind: Kind;
  /** The Pulumi resource name. */
  name: string;
  args?: Record<string, unknown>;
  late?: string[];
  secret?: string[];
}

const VALID: Record<Kind, Record<string, unknown>> = {
  Service: { serviceType: "POSTGRES", regionCode: "us-east-1", cpuMillis: 1000, memoryGbs: 4 },
  ReadReplicaSet: { serviceId: "svc-any", nodes: 2, cpuMillis: 1000, memoryGbs: 4 },
  Vpc: { cidr: "10.20.0.0/16", regionCode: "us-east-1" },
  VpcPeering: {
    vpcId: "vpc-any",
    peerAccountId: "123456789012",
    peerRegionCode: "us-east-1",
    peerVpcId: "vpc-peer",
  },
};

// Gives back its input `given` as its output `value`, calling no API. Preview shows an output
// that is not an input as unknown, so `value` is known only once the resource is created.
const echo: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    return { id: "later", outs: { given: inputs.given, value: inputs.given } };
  },
};

/** A local resource whose `value` output is its input: known only once `up` has run. */
class Later extends pulumi.dynamic.Resource {
  declare readonly value: pulumi.Output<unknown>;
  constructor(name: string, given: unknown) {
    super(echo, name, { given, value: undefined }, {}, "e2e", "Later");
  }
}

const declared = JSON.parse(process.env.MDB_E2E_CASE ?? "[]") as Declared[];
/** A resource of the native plugin, by type token, as an SDK's class registers one. */
class NativeResource extends pulumi.CustomResource {}

for (const { kind, name, args = {}, late = [], secret = [] } of declared) {
  const inputs: Record<string, unknown> = { ...VALID[kind], ...args };
  for (const [key, value] of Object.entries(args)) if (value === null) delete inputs[key];
  for (const key of late) inputs[key] = new Later(`${name}-${key}`, inputs[key]).value;
  for (const key of secret) inputs[key] = pulumi.secret(inputs[key]);
  if (process.env.MDB_E2E_FACE === "native") {
    // What any language's SDK sends the native plugin, with no check of its own on the way.
    new NativeResource(`mdb:index:${kind}`, name, inputs);
  } else {
    // The program passes what a JavaScript program could: no type checks the inputs.
    new (mdb[kind] as unknown as new (name: string, args: unknown) => pulumi.Resource)(name, inputs);
  }
}
