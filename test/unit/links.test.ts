/**
 * A read replica set's URI needs no password restated: under `pulumi.runtime` mocks, a
 * `ReadReplicaSet` whose `serviceId` is a `Service` of the same program registers that service's
 * current password (its `password`, else its initial one) as its own, as a secret, and so
 * follows a rotation; a password the program gives wins; a service id written out finds nothing.
 * The same for the native classes the plugin builds a ProductionDatabase's children with. A
 * password so filled in is no change against a state written before the follow.
 */
import * as pulumi from "@pulumi/pulumi";
import * as dynamicClasses from "../../provider";
import * as nativeClasses from "../../provider/native";
import { diffResource } from "../../provider/kit/fields/diff";
import { FOLLOWED_INPUT } from "../../provider/kit/hidden";
import { specOf } from "../../provider/kit/spec";
import { REGISTRY } from "../../provider/resources/registry";
import { SECRET_SIG, SIG_KEY } from "../../provider/pulumi-contract/sentinels";

/** The inputs the mocked engine received, by resource name. */
let registered: Record<string, Record<string, unknown>>;

beforeEach(async () => {
  registered = {};
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered[args.name] = args.inputs;
        const extra = args.type.endsWith(":Service") ? { initialPassword: "initial-pw" } : {};
        return { id: `${args.name}-id`, state: { ...args.inputs, ...extra } };
      },
      call: (args) => args.inputs,
    },
    "links",
    "test",
  );
});

const SERVICE = { serviceType: "POSTGRES", regionCode: "us-east-1", cpuMillis: 1000, memoryGbs: 4 } as const;
const SET = { nodes: 1, cpuMillis: 1000, memoryGbs: 4 };
const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });

/** Waits until `names` have registered. */
async function registeredAll(...names: string[]): Promise<void> {
  for (let i = 0; i < 200 && !names.every((n) => n in registered); i++)
    await new Promise((resolve) => setTimeout(resolve, 5));
}

describe.each([
  ["the dynamic classes", dynamicClasses],
  ["the native classes (mdb:index:*)", nativeClasses],
])("%s", (_face, { Service, ReadReplicaSet }) => {
  it.each([
    ["its initial password, when the program sets none", {}, "initial-pw"],
    [
      "its password, when the program sets one (a rotation changes both)",
      { password: "rotated-pw-2" },
      "rotated-pw-2",
    ],
  ])("a set on a Service of the program takes %s, as a secret", async (_, extra, expected) => {
    const db = new Service("db", { ...SERVICE, ...extra });
    new ReadReplicaSet("reads", { ...SET, serviceId: db.serviceId });
    await registeredAll("db", "reads");
    expect(registered.reads.password).toEqual(secret(expected));
  });

  it("a password the program gives the set wins", async () => {
    const db = new Service("db", { ...SERVICE, password: "service-pw-1" });
    new ReadReplicaSet("reads", { ...SET, serviceId: db.serviceId, password: "given-pw-9" });
    await registeredAll("db", "reads");
    expect(registered.reads.password).toBe("given-pw-9");
  });

  it("a service id written out (a service outside the program) finds nothing: no password", async () => {
    new ReadReplicaSet("reads", { ...SET, serviceId: "svc-elsewhere" });
    await registeredAll("reads");
    expect(registered.reads.password).toBeUndefined();
  });
});

describe("an upgrade: a state written before the follow holds no password for the set", () => {
  const spec = specOf(REGISTRY["read-replica-set"].definition);
  const olds = { replicaSetId: "rrs-1", serviceId: "svc-1", nodes: 1, cpuMillis: 1000, memoryGbs: 4 };

  it("the dynamic classes name what they filled in under __followed, and only that", async () => {
    const db = new dynamicClasses.Service("db", { ...SERVICE });
    new dynamicClasses.ReadReplicaSet("reads", { ...SET, serviceId: db.serviceId });
    new dynamicClasses.ReadReplicaSet("given", { ...SET, serviceId: db.serviceId, password: "given-pw-9" });
    await registeredAll("db", "reads", "given");
    expect(registered.reads[FOLLOWED_INPUT]).toEqual(["password"]);
    expect(registered.given[FOLLOWED_INPUT]).toBeUndefined();
  });

  it("a password the follow filled in is no change against such a state", () => {
    const news = { ...olds, password: "initial-pw", [FOLLOWED_INPUT]: ["password"] };
    expect(diffResource(spec, olds, news).changes).toBe(false);
  });

  it("a password the program gives is a change against it, as is a rotation the state already follows", () => {
    expect(diffResource(spec, olds, { ...olds, password: "given-pw-9" }).detailedDiff).toHaveProperty(
      "password",
    );
    const rotated = { ...olds, password: "rotated-pw-2", [FOLLOWED_INPUT]: ["password"] };
    expect(diffResource(spec, { ...olds, password: "initial-pw" }, rotated).detailedDiff).toHaveProperty(
      "password",
    );
  });
});
