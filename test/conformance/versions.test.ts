/**
 * The per-version facts of api/versions.ts against the rest of api/: each operation's row, the
 * answers each dialect gives, and the request schemas each dialect validates with. When a version's
 * fact and the code disagree, one of them is wrong (docs/api.md#divergences).
 */
import { OPERATIONS, OPERATION_IDS, answerKind, requestSchema, type OperationId } from "../../api/operations";
import { OPERATION_VERSIONS, type FieldFact } from "../../api/versions";
import { exampleBody, type Ids } from "./examples";

const IDS: Ids = {
  project_id: "p",
  service_id: "s",
  replica_set_id: "rrs",
  vpc_id: "123",
  peering_id: "456",
};

/** The kind of answer each written answer of a version stands for. */
const ANSWER_KINDS: Record<string, string[]> = {
  none: ["none"],
  "{message}": ["actionResult", "actionResultOrNone"],
  "{code, message}": ["codeMessage"],
  "{status}": ["analyticsResult"],
  Service: ["service", "serviceOrNone"],
  "Service[]": ["serviceList"],
  VPC: ["vpc"],
  "VPC[]": ["vpcList"],
  Peering: ["peering"],
  "Peering[]": ["peeringList"],
  ReadReplicaSet: ["replicaSet"],
  "ReadReplicaSet[]": ["replicaSetList"],
  "Project[]": ["projectList"],
  ServiceLogs: ["serviceLogs"],
  "string[]": ["metricSeriesNames"],
  "MetricSeries[]": ["metricSeriesList"],
};

describe.each(OPERATION_IDS.map((id) => [id] as const))("%s", (id: OperationId) => {
  const facts = OPERATION_VERSIONS[id];
  const op = OPERATIONS[id];

  it("is the seed's (and the spec-era document's) exactly when its row says origin spec", () => {
    expect([facts.seed !== null, facts.specEra !== null]).toEqual(
      op.origin === "spec" ? [true, true] : [false, false],
    );
    expect(facts.current).not.toBeNull();
  });

  it("has the current document's status, and each dialect answers its version's body", () => {
    expect(op.status).toBe(facts.current!.status);
    const current = facts.current!.answer;
    if (ANSWER_KINDS[current]) expect(ANSWER_KINDS[current]).toContain(answerKind(id, "vendor"));
    const seed = facts.seed?.answer;
    if (seed && ANSWER_KINDS[seed]) expect(ANSWER_KINDS[seed]).toContain(answerKind(id, "seed"));
  });

  const request = facts.current!.request;
  const fields = typeof request === "object" ? Object.entries(request) : [];
  const body = () => ({ ...(exampleBody(id, IDS) as Record<string, unknown>) });
  const vendor = () => requestSchema(id, "vendor")!;
  const seed = () => requestSchema(id, "seed")!;

  if (fields.length > 0) {
    it("the vendor dialect requires what the current document requires", () => {
      for (const [field, fact] of fields.filter(([, f]) => f.required)) {
        const without = body();
        delete without[field];
        const issues = vendor().safeParse(without).error?.issues ?? [];
        expect([field, issues.some((i) => i.path[0] === field)]).toEqual([field, true]);
        expect(fact.required).toBe(true);
      }
    });
  }

  const numeric = fields.filter((entry): entry is [string, FieldFact] =>
    ["digits", "size", "integer"].includes(entry[1].type),
  );
  const SAMPLES: Record<string, number> = {
    cpu_millis: 1000,
    memory_gbs: 4,
    nodes: 1,
    replica_count: 1,
    sync_replica_count: 0,
    bucket_seconds: 60,
  };
  const sized = numeric.filter(([field]) => field in SAMPLES);
  if (sized.length > 0) {
    it.each(sized)(
      "%s: the vendor dialect takes the current document's form only; the seed both",
      (field, fact) => {
        const n = SAMPLES[field];
        const [good, bad] = fact.type === "integer" ? [n, String(n)] : [String(n), n];
        expect(vendor().safeParse({ ...body(), [field]: good }).success).toBe(true);
        expect(vendor().safeParse({ ...body(), [field]: bad }).success).toBe(false);
        if (field !== "bucket_seconds") {
          expect(seed().safeParse({ ...body(), [field]: n }).success).toBe(true);
          expect(seed().safeParse({ ...body(), [field]: String(n) }).success).toBe(true);
        }
      },
    );
  }

  const digitIds = fields.filter(
    ([, fact]) => fact.type === "digits" && !((fact as unknown as string) in SAMPLES),
  );
  const ids = digitIds.filter(([field]) => !(field in SAMPLES));
  if (ids.length > 0) {
    it.each(ids)("%s: a string of digits in the vendor dialect, any string in the seed", (field) => {
      expect(vendor().safeParse({ ...body(), [field]: "1234" }).success).toBe(true);
      expect(vendor().safeParse({ ...body(), [field]: "vpc-1234" }).success).toBe(false);
      expect(seed().safeParse({ ...body(), [field]: "vpc-1234" }).success).toBe(true);
    });
  }
});
