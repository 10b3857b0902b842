/**
 * The TypeScript types users see stay what they were when they were written by hand (0.1.0),
 * now that each is inferred from a declaration (a row's zod type, a function's or the
 * component's zod object): a program that compiled keeps compiling. Checked by the compiler
 * (`npm run typecheck` compiles this file): each snapshot below and the type the package exports
 * now must be assignable to each other, optional members included. Additions that keep old
 * programs compiling are allowed and named (`forkedFrom.strategy`, `forkedFrom.targetTime`).
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as mdb from "../../provider";
import type { ServiceOutputs } from "../../provider/resources/service/fields";
import type { ReadReplicaSetOutputs } from "../../provider/resources/read-replica-set/fields";
import type { VpcOutputs } from "../../provider/resources/vpc/fields";
import type { VpcPeeringOutputs } from "../../provider/resources/vpc-peering/fields";

/** True when each of `A` and `B` is assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only when `A` and `B` are the same to a program. */
function same<A, B>(proof: Same<A, B>): Same<A, B> {
  return proof;
}

// ---------------------------------------------------------------------------------------
// 0.1.0's types, as they were written by hand or printed by the compiler
// ---------------------------------------------------------------------------------------

type Input<T> = pulumi.Input<T>;
type Endpoint = { host: string; port: number };
type ResourceOutput = { id: string; cpuMillis: number; memoryGbs: number; volumeType?: string };
type PgEnv = {
  PGHOST: string;
  PGPORT: string;
  PGUSER: string;
  PGPASSWORD: string;
  PGDATABASE: string;
  PGSSLMODE: string;
};
type ServiceType = "TIMESERIESDB" | "POSTGRES" | "VECTOR" | "TIMESCALEDB";
type ForkFrom = {
  serviceId: string;
  strategy: "LAST_SNAPSHOT" | "NOW" | "PITR";
  projectId?: string;
  targetTime?: string;
};
type FinalForkOptions = { name?: string; cpuMillis?: number; memoryGbs?: number };

type ServiceOutputs010 = {
  serviceId: string;
  projectId: string;
  name: string;
  serviceType: ServiceType;
  regionCode: string;
  cpuMillis: number | "shared";
  memoryGbs: number | "shared";
  replicaCount: number;
  syncReplicaCount: number;
  environment: "PROD" | "DEV";
  connectionPooler: boolean;
  paused: boolean;
  status: string;
  resources: ResourceOutput[];
  readReplicaSets: { id: string; name: string }[];
  password?: string;
  vpcId?: string;
  forkFrom?: ForkFrom;
  deletionProtection?: boolean;
  username?: string;
  databaseName?: string;
  finalFork?: boolean | FinalForkOptions;
  created?: string;
  endpoint?: Endpoint;
  poolerEndpoint?: Endpoint;
  vpcEndpoint?: { host?: string; port?: number; vpcId?: string };
  haReplicas?: { replicaCount?: number; syncReplicaCount?: number };
  forkedFrom?: { projectId?: string; serviceId?: string; isStandby?: boolean };
  initialPassword?: string;
  connectionUri?: string;
  poolerConnectionUri?: string;
  vpcConnectionUri?: string;
  pgEnv?: PgEnv;
};
type ReadReplicaSetOutputs010 = {
  replicaSetId: string;
  projectId: string;
  serviceId: string;
  name: string;
  nodes: number;
  cpuMillis: number;
  memoryGbs: number;
  environment: "PROD" | "DEV";
  connectionPooler: boolean;
  status: string;
  password?: string;
  username?: string;
  databaseName?: string;
  endpoint?: Endpoint;
  poolerEndpoint?: Endpoint;
  connectionUri?: string;
};
type VpcOutputs010 = {
  vpcId: string;
  projectId: string;
  name: string;
  cidr: string;
  regionCode: string;
  deletionProtection?: boolean;
};
type VpcPeeringOutputs010 = {
  peeringId: string;
  projectId: string;
  vpcId: string;
  peerAccountId: string;
  peerRegionCode: string;
  peerVpcId: string;
  status: string;
  provisionedId?: string;
  errorMessage?: string;
};

type ServiceArgs010 = {
  serviceType: Input<ServiceType>;
  regionCode: Input<string>;
  cpuMillis: Input<number | "shared">;
  memoryGbs: Input<number | "shared">;
  projectId?: Input<string>;
  name?: Input<string>;
  replicaCount?: Input<number>;
  syncReplicaCount?: Input<number>;
  environment?: Input<"PROD" | "DEV">;
  password?: Input<string>;
  connectionPooler?: Input<boolean>;
  vpcId?: Input<string>;
  paused?: Input<boolean>;
  forkFrom?: Input<{
    serviceId: Input<string>;
    strategy: Input<"LAST_SNAPSHOT" | "NOW" | "PITR">;
    projectId?: Input<string>;
    targetTime?: Input<string>;
  }>;
  deletionProtection?: Input<boolean>;
  username?: Input<string>;
  databaseName?: Input<string>;
  finalFork?: Input<boolean | FinalForkOptions>;
};
type ReadReplicaSetArgs010 = {
  serviceId: Input<string>;
  nodes: Input<number>;
  cpuMillis: Input<number>;
  memoryGbs: Input<number>;
  projectId?: Input<string>;
  name?: Input<string>;
  environment?: Input<"PROD" | "DEV">;
  connectionPooler?: Input<boolean>;
  password?: Input<string>;
  username?: Input<string>;
  databaseName?: Input<string>;
};
type VpcArgs010 = {
  cidr: Input<string>;
  regionCode: Input<string>;
  projectId?: Input<string>;
  name?: Input<string>;
  deletionProtection?: Input<boolean>;
};
type VpcPeeringArgs010 = {
  vpcId: Input<string>;
  peerAccountId: Input<string>;
  peerRegionCode: Input<string>;
  peerVpcId: Input<string>;
  projectId?: Input<string>;
};

type ProjectArgs010 = { projectId?: string };
type GetServiceArgs010 = ProjectArgs010 &
  ({ serviceId: string; name?: undefined } | { name: string; serviceId?: undefined });
type GetVpcArgs010 = ProjectArgs010 &
  ({ vpcId: string; name?: undefined } | { name: string; vpcId?: undefined });
type ServiceScopeArgs010 = ProjectArgs010 & { serviceId: string };
type VpcScopeArgs010 = ProjectArgs010 & { vpcId: string };
type GetVpcPeeringArgs010 = VpcScopeArgs010 & { peeringId: string };
type IdentifyArgs010 = { properties?: Record<string, unknown> };
type TrackArgs010 = { event: string; properties?: Record<string, unknown> };
type AuthInfoResult010 = {
  type: string;
  publicKey: string;
  name?: string;
  created?: string;
  project: { id: string; name?: string; planType?: string };
  issuingUser?: { id?: string; name?: string; email?: string };
};
type ProjectResult010 = { id: string; name?: string };
type ServiceSecret =
  "password" | "initialPassword" | "connectionUri" | "poolerConnectionUri" | "vpcConnectionUri" | "pgEnv";
type ServiceResult010 = Omit<ServiceOutputs010, ServiceSecret>;
type ReadReplicaSetResult010 = Omit<ReadReplicaSetOutputs010, "password" | "connectionUri">;

type ProductionDatabasePeeringArgs010 = {
  peerAccountId: Input<string>;
  peerRegionCode?: Input<string>;
  peerVpcId: Input<string>;
};
type ProductionDatabaseArgs010 = {
  projectId?: Input<string>;
  regionCode: Input<string>;
  cpuMillis: Input<number>;
  memoryGbs: Input<number>;
  cidr?: Input<string>;
  vpcId?: Input<string>;
  vpcName?: Input<string>;
  serviceName?: Input<string>;
  serviceType?: Input<ServiceType>;
  replicaCount?: Input<number>;
  syncReplicaCount?: Input<number>;
  password?: Input<string>;
  username?: Input<string>;
  databaseName?: Input<string>;
  readReplicaSets?: number;
  readReplicaNodes?: Input<number>;
  readReplicaCpuMillis?: Input<number>;
  readReplicaMemoryGbs?: Input<number>;
  peering?: ProductionDatabasePeeringArgs010;
  deletionProtection?: boolean;
};

// ---------------------------------------------------------------------------------------
// The checks
// ---------------------------------------------------------------------------------------

/** What 0.1.0's `forkedFrom` gained: the fork's strategy and time, as the stack remembers them. */
type ForkedFromAdded = { strategy?: "LAST_SNAPSHOT" | "NOW" | "PITR"; targetTime?: string };

it("keeps every exported type a program may use (checked when compiled)", () => {
  const proofs: true[] = [
    // Resources: outputs, class properties and args.
    same<Omit<ServiceOutputs, "forkedFrom">, Omit<ServiceOutputs010, "forkedFrom">>(true),
    same<ServiceOutputs["forkedFrom"], (ServiceOutputs010["forkedFrom"] & ForkedFromAdded) | undefined>(true),
    same<ReadReplicaSetOutputs, ReadReplicaSetOutputs010>(true),
    same<VpcOutputs, VpcOutputs010>(true),
    same<VpcPeeringOutputs, VpcPeeringOutputs010>(true),
    // Since 0.2.0 an output the resource has none of is null in the state (never unknown at a
    // preview), so a class property may be null too: widened, never narrowed.
    same<mdb.Service["endpoint"], pulumi.Output<Endpoint | null | undefined>>(true),
    same<mdb.Service["resources"], pulumi.Output<ResourceOutput[]>>(true),
    same<mdb.Service["pgEnv"], pulumi.Output<PgEnv | null | undefined>>(true),
    same<mdb.Service["projectId"], pulumi.Output<string>>(true),
    same<mdb.Service["deletionProtection"], pulumi.Output<boolean | null | undefined>>(true),
    same<mdb.ReadReplicaSet["poolerEndpoint"], pulumi.Output<Endpoint | null | undefined>>(true),
    same<mdb.VpcPeering["provisionedId"], pulumi.Output<string | null | undefined>>(true),
    same<mdb.ServiceArgs, ServiceArgs010>(true),
    same<mdb.ReadReplicaSetArgs, ReadReplicaSetArgs010>(true),
    same<mdb.VpcArgs, VpcArgs010>(true),
    same<mdb.VpcPeeringArgs, VpcPeeringArgs010>(true),
    same<mdb.EndpointOutput, Endpoint>(true),
    same<mdb.ResourceOutput, ResourceOutput>(true),
    same<mdb.PgEnv, PgEnv>(true),
    same<mdb.FinalForkOptions, FinalForkOptions>(true),
    same<mdb.ForkFromArgs, { [K in keyof ForkFrom]: Input<ForkFrom[K]> }>(true),
    // Functions: arguments (plain and as Inputs) and results.
    same<mdb.ProjectArgs, ProjectArgs010>(true),
    same<mdb.GetServiceArgs, GetServiceArgs010>(true),
    same<mdb.GetVpcArgs, GetVpcArgs010>(true),
    same<mdb.ServiceScopeArgs, ServiceScopeArgs010>(true),
    same<mdb.VpcScopeArgs, VpcScopeArgs010>(true),
    same<mdb.GetVpcPeeringArgs, GetVpcPeeringArgs010>(true),
    same<mdb.IdentifyArgs, IdentifyArgs010>(true),
    same<mdb.TrackArgs, TrackArgs010>(true),
    same<mdb.GetServiceOutputArgs, mdb.OutputArgs<GetServiceArgs010>>(true),
    same<mdb.AuthInfoResult, AuthInfoResult010>(true),
    same<mdb.ProjectResult, ProjectResult010>(true),
    same<Omit<mdb.ServiceResult, "forkedFrom">, Omit<ServiceResult010, "forkedFrom">>(true),
    same<mdb.ServiceResult["forkedFrom"], (ServiceOutputs010["forkedFrom"] & ForkedFromAdded) | undefined>(
      true,
    ),
    same<mdb.ReadReplicaSetResult, ReadReplicaSetResult010>(true),
    same<mdb.VpcResult, VpcOutputs010>(true),
    same<mdb.VpcPeeringResult, VpcPeeringOutputs010>(true),
    same<mdb.AnalyticsResult, { status: string }>(true),
    same<ReturnType<typeof mdb.listServices>, Promise<mdb.ServiceResult[]>>(true),
    // The component: its args and the outputs its class shows.
    same<mdb.ProductionDatabaseArgs, ProductionDatabaseArgs010>(true),
    same<mdb.ProductionDatabasePeeringArgs, ProductionDatabasePeeringArgs010>(true),
    same<mdb.ProductionDatabase["vpcId"], pulumi.Output<string>>(true),
    same<mdb.ProductionDatabase["connectionUri"], pulumi.Output<string>>(true),
    same<mdb.ProductionDatabase["readReplicaConnectionUris"], pulumi.Output<string[]>>(true),
  ];
  expect(proofs.every(Boolean)).toBe(true);
});

it("refuses what 0.1.0 refused (checked when compiled)", () => {
  const refused = (_service: mdb.Service, _args: mdb.ServiceArgs) => {
    // @ts-expect-error an endpoint's port is a number
    const port: pulumi.Output<string | null | undefined> = _service.endpoint.apply((e) => e?.port);
    // @ts-expect-error `status` is an output, not an input
    const status: mdb.ServiceArgs = { ..._args, status: "READY" };
    // @ts-expect-error serviceType is one of the service types
    const mysql: mdb.ServiceArgs = { ..._args, serviceType: "MYSQL" };
    // @ts-expect-error a fork needs a strategy
    const noStrategy: mdb.ForkFromArgs = { serviceId: "s" };
    // @ts-expect-error getService takes a serviceId or a name, not both
    const both: mdb.GetServiceArgs = { serviceId: "s", name: "n" };
    // @ts-expect-error nor neither
    const neither: mdb.GetServiceArgs = { projectId: "p" };
    // @ts-expect-error readReplicaSets is a plain number: it decides how many resources there are
    const sets: mdb.ProductionDatabaseArgs["readReplicaSets"] = _service.replicaCount;
    // @ts-expect-error deletionProtection is a plain boolean
    const guard: mdb.ProductionDatabaseArgs["deletionProtection"] = _service.paused;
    return [port, status, mysql, noStrategy, both, neither, sets, guard];
  };
  expect(typeof refused).toBe("function");
});
