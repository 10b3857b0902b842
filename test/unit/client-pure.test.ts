import { backoffDelay, parseRetryAfter } from "../../provider/client/backoff";
import { MdbApiError, REDACTED, redact, redirectTarget } from "../../provider/client/errors";
import { HttpClient } from "../../provider/client/http";
import { isLoopbackHost, normalizeBaseUrl } from "../../provider/client/base-url";
import { MissingConfigError, resolveConfig } from "../../provider/config";

describe("backoff", () => {
  const policy = { initialMs: 100, maxMs: 1000, factor: 2, jitter: 0.5 };

  it("grows exponentially to the cap", () => {
    const noJitter = { ...policy, jitter: 0 };
    expect([0, 1, 2, 3, 4, 5].map((a) => backoffDelay(noJitter, a))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
  });

  it("jitters within [d*(1-jitter), d]", () => {
    expect(backoffDelay(policy, 2, () => 0)).toBe(400);
    expect(backoffDelay(policy, 2, () => 0.999999)).toBe(200);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    expect(parseRetryAfter("0.5")).toBe(500);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
  });
});

describe("redaction", () => {
  it("removes secrets and Basic credentials from text", () => {
    const text =
      'failed with key s3cr3t-key and header authorization: Basic bWRiOnMzY3IzdA== for "s3cr3t-key"';
    const out = redact(text, ["s3cr3t-key"]);
    expect(out).not.toContain("s3cr3t-key");
    expect(out).not.toContain("bWRiOnMzY3IzdA==");
    expect(out).toContain(REDACTED);
  });

  it("builds error messages that name operation, resource, status and code", () => {
    const error = new MdbApiError({
      operation: "resizeService",
      status: 409,
      code: "CONFLICT",
      apiMessage: "service is CONFIGURING",
      resourceId: "abc123",
      ambiguous: false,
    });
    expect(error.message).toBe("resizeService (abc123) failed: HTTP 409 CONFLICT: service is CONFIGURING");
    expect(error.isConflict).toBe(true);
  });
});

describe("transport limits and redirects", () => {
  it("shows where a redirect pointed without user info, query or fragment, which may hold a token", () => {
    const request = "https://api.example.com/public/api/v1/projects/p/services";
    expect(redirectTarget("https://user:pw@sso.example.net/login?token=abc#top", request)).toBe(
      "https://sso.example.net/login (query omitted)",
    );
    expect(redirectTarget("/public/api/v2/projects/p/services", request)).toBe(
      "https://api.example.com/public/api/v2/projects/p/services",
    );
    expect(redirectTarget(undefined, request)).toBe("nowhere (no Location header)");
  });

  it("a failure the client marks final is not transient, whatever its status", () => {
    const base = {
      operation: "getService",
      code: "RESPONSE_TOO_LARGE",
      apiMessage: "too large",
      ambiguous: true,
    };
    expect(new MdbApiError(base).isTransient).toBe(true);
    expect(new MdbApiError({ ...base, retryable: false }).isTransient).toBe(false);
    expect(new MdbApiError({ ...base, status: 429, retryable: false }).isTransient).toBe(false);
  });

  it("limits that cannot work are refused when the client is made, naming the option", () => {
    const options = { baseUrl: "http://127.0.0.1:8080", publicKey: "pk", secretKey: "sk" };
    expect(() => new HttpClient({ ...options, maxResponseBytes: 0 })).toThrow(
      "HttpClient option maxResponseBytes must be a positive number, got 0",
    );
    expect(() => new HttpClient({ ...options, attemptDeadlineMs: Number.NaN })).toThrow(/attemptDeadlineMs/);
    expect(() => new HttpClient({ ...options, maxResponseBytes: 2 ** 40 })).toThrow(
      /maxResponseBytes must be at most \d+/,
    );
    expect(() => new HttpClient({ ...options, maxResponseBytes: 64 * 1024 * 1024 })).not.toThrow();
  });
});

describe("base URL rules", () => {
  it("accepts https anywhere and http on loopback only", () => {
    expect(normalizeBaseUrl("https://api.example.com/public/api/v1/")).toBe(
      "https://api.example.com/public/api/v1",
    );
    expect(normalizeBaseUrl("http://127.0.0.1:8080")).toBe("http://127.0.0.1:8080/public/api/v1");
    expect(normalizeBaseUrl("http://localhost:9/public/api/v1")).toBe("http://localhost:9/public/api/v1");
    expect(normalizeBaseUrl("http://[::1]:9/public/api/v1")).toBe("http://[::1]:9/public/api/v1");
    expect(() => normalizeBaseUrl("http://api.example.com/public/api/v1")).toThrow(/plain http/);
    expect(() => normalizeBaseUrl("http://10.0.0.5/public/api/v1")).toThrow(/plain http/);
    expect(() => normalizeBaseUrl("ftp://x")).toThrow(/https/);
    expect(() => normalizeBaseUrl("not a url")).toThrow(/not a valid URL/);
  });

  it("knows the loopback range", () => {
    expect(isLoopbackHost("127.8.9.10")).toBe(true);
    expect(isLoopbackHost("128.0.0.1")).toBe(false);
    expect(isLoopbackHost("localhost")).toBe(true);
    expect(isLoopbackHost("localhost.example.com")).toBe(false);
  });
});

describe("config resolution", () => {
  const config = (values: Record<string, string>) => ({ get: (k: string) => values[k] });

  it("prefers stack config to the environment", () => {
    const resolved = resolveConfig(
      config({ "mdb:apiUrl": "https://a/public/api/v1", "mdb:projectId": "p1" }),
      {
        MDB_API_URL: "https://b/public/api/v1",
        MDB_PUBLIC_KEY: "pub",
        MDB_SECRET_KEY: "sec",
        MDB_PROJECT_ID: "p2",
      },
    );
    expect(resolved).toEqual({
      apiUrl: "https://a/public/api/v1",
      publicKey: "pub",
      secretKey: "sec",
      projectId: "p1",
    });
  });

  it("names every missing setting with its config key and variable", () => {
    expect(() => resolveConfig(config({ "mdb:apiUrl": "https://a" }), {})).toThrow(MissingConfigError);
    let message = "";
    try {
      resolveConfig(undefined, { MDB_API_URL: "https://a" });
    } catch (error) {
      message = (error as Error).message;
    }
    {
      expect(message).toContain("mdb:publicKey");
      expect(message).toContain("MDB_PUBLIC_KEY");
      expect(message).toContain("pulumi config set mdb:secretKey --secret");
      expect(message).toContain("MDB_SECRET_KEY");
      expect(message).not.toContain("mdb:apiUrl");
    }
  });
});
