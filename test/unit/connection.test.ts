/**
 * Connection outputs (no server): URIs a driver reads back to the same user, password, host,
 * port and database whatever characters they hold; the libpq environment; and which URIs a
 * service shows (pooler only while on, VPC only while attached, none without a known password).
 */
import { pgEnvOf, postgresUri } from "../../provider/kit/fields/connection";
import { serviceConnection } from "../../provider/resources/service/connection";

const TARGET = {
  host: "svc-1.emulator.local",
  port: 5432,
  username: "tsdbadmin",
  password: "s3cret",
  databaseName: "tsdb",
};

/** What a driver reads from a URI (WHATWG URL parsing, as node-postgres does). */
function parsed(uri: string) {
  const url = new URL(uri);
  return {
    protocol: url.protocol,
    username: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    host: url.hostname,
    port: Number(url.port),
    databaseName: decodeURIComponent(url.pathname.slice(1)),
    sslmode: url.searchParams.get("sslmode"),
  };
}

describe("postgresUri", () => {
  it("is postgres://USER:PASSWORD@HOST:PORT/DB?sslmode=require", () => {
    expect(postgresUri(TARGET)).toBe(
      "postgres://tsdbadmin:s3cret@svc-1.emulator.local:5432/tsdb?sslmode=require",
    );
  });

  it.each([
    ["a password with URI delimiters", { password: "p@ss:w/rd?#%&=+ é" }],
    ["a user with delimiters", { username: "app@team:ro" }],
    ["a database name with a slash and a space", { databaseName: "orders/2026 eu" }],
  ])("reads back exactly with %s", (_what, change) => {
    const target = { ...TARGET, ...change };
    expect(parsed(postgresUri(target))).toEqual({
      protocol: "postgres:",
      username: target.username,
      password: target.password,
      host: target.host,
      port: target.port,
      databaseName: target.databaseName,
      sslmode: "require",
    });
  });

  it("brackets an IPv6 host", () => {
    const uri = postgresUri({ ...TARGET, host: "fd00::1" });
    expect(uri).toContain("@[fd00::1]:5432/");
    expect(parsed(uri).host).toBe("[fd00::1]");
  });
});

describe("pgEnvOf", () => {
  it("gives every libpq variable as a string, TLS required", () => {
    expect(pgEnvOf({ ...TARGET, password: "p@ss:w/rd" })).toEqual({
      PGHOST: "svc-1.emulator.local",
      PGPORT: "5432",
      PGUSER: "tsdbadmin",
      PGPASSWORD: "p@ss:w/rd",
      PGDATABASE: "tsdb",
      PGSSLMODE: "require",
    });
  });
});

describe("serviceConnection", () => {
  const endpoints = {
    endpoint: { host: "db.local", port: 5432 },
    poolerEndpoint: { host: "pool.local", port: 6432 },
    vpcEndpoint: { host: "db.vpc.local", port: 5432, vpcId: "vpc-1" },
  };

  it("builds one URI per endpoint with the vendor's default user and database", () => {
    expect(serviceConnection({ ...endpoints, initialPassword: "initial-pw" }, {})).toEqual({
      username: "tsdbadmin",
      databaseName: "tsdb",
      connectionUri: "postgres://tsdbadmin:initial-pw@db.local:5432/tsdb?sslmode=require",
      poolerConnectionUri: "postgres://tsdbadmin:initial-pw@pool.local:6432/tsdb?sslmode=require",
      vpcConnectionUri: "postgres://tsdbadmin:initial-pw@db.vpc.local:5432/tsdb?sslmode=require",
      pgEnv: {
        PGHOST: "db.local",
        PGPORT: "5432",
        PGUSER: "tsdbadmin",
        PGPASSWORD: "initial-pw",
        PGDATABASE: "tsdb",
        PGSSLMODE: "require",
      },
    });
  });

  it("uses the password set through the resource over the initial one, and the names given", () => {
    const out = serviceConnection(
      { ...endpoints, password: "current-pw", initialPassword: "initial-pw" },
      { username: "app", databaseName: "orders" },
    );
    expect(out.connectionUri).toBe("postgres://app:current-pw@db.local:5432/orders?sslmode=require");
    expect(out.pgEnv).toMatchObject({ PGUSER: "app", PGPASSWORD: "current-pw", PGDATABASE: "orders" });
  });

  it("gives no pooler URI while the pooler is off, no VPC URI while detached", () => {
    const out = serviceConnection({ endpoint: endpoints.endpoint, initialPassword: "pw" }, {});
    expect(out.connectionUri).toBeDefined();
    expect(out.poolerConnectionUri).toBeUndefined();
    expect(out.vpcConnectionUri).toBeUndefined();
  });

  it("gives only the names when the stack does not know the password (an import without password)", () => {
    expect(serviceConnection(endpoints, {})).toEqual({ username: "tsdbadmin", databaseName: "tsdb" });
  });
});
