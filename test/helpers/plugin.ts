/**
 * Drives the native plugin's server in-process over real gRPC, as the engine does: a client of
 * its ResourceProvider service and a stand-in engine whose `Log` keeps every line. Properties go
 * in as plain objects (`secret(...)` and `UNKNOWN` as the engine marks them) and come back
 * decoded, secrets still wrapped, so a test sees what the engine would store.
 *
 * ```ts
 * const plugin = await startTestPlugin();
 * await plugin.configureFor(emu);
 * const { inputs } = await plugin.check("mdb:index:Vpc", "core", { cidr: "10.0.0.0/16", regionCode: "us-east-1" });
 * const { id, properties } = await plugin.create("mdb:index:Vpc", "core", inputs);
 * ```
 */
import * as grpc from "@grpc/grpc-js";
import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { type PluginServer, startPlugin } from "../../provider/adapters/plugin/server";
import { INIT_FAILED_TYPE, STATUS_DETAILS_KEY, protocol } from "../../provider/pulumi-contract/grpc-protocol";
import { SECRET_SIG, SIG_KEY } from "../../provider/pulumi-contract/sentinels";
import type { TestEmulator } from "./emulator";

/** Properties as plain JSON-like values. */
export type Props = Record<string, unknown>;

/** The stack and project of every URN the helper makes. */
export const STACK = "dev";
export const PROJECT = "plugin-test";

/** The URN of resource `name` of type `type`. */
export function urnOf(type: string, name: string): string {
  return `urn:pulumi:${STACK}::${PROJECT}::${type}::${name}`;
}

/** `value` as the engine hands a secret over. */
export function secret(value: unknown): Props {
  return { [SIG_KEY]: SECRET_SIG, value };
}

/** True when `value` is a secret as the wire carries it. */
export function isSecret(value: unknown): boolean {
  return typeof value === "object" && value !== null && (value as Props)[SIG_KEY] === SECRET_SIG;
}

/** The plain value of `value`, a secret or not. */
export function reveal(value: unknown): unknown {
  return isSecret(value) ? (value as Props).value : value;
}

/** A line the plugin sent the stand-in engine. */
export interface LoggedLine {
  severity: number;
  message: string;
  urn: string;
}

/** A failed call: its gRPC code and message, and the partial failure's detail when it carries one. */
export interface CallFailure {
  code: number;
  message: string;
  initFailed?: { id: string; properties: Props; reasons: string[] };
}

/** A struct of `props`. */
export function struct(props: Props): Struct {
  return protocol().struct.Struct.fromJavaScript(props as never);
}

/** The plugin under test and its stand-in engine. */
export interface TestPlugin {
  server: PluginServer;
  /** Every line logged to the stand-in engine. */
  logs: LoggedLine[];
  /** Calls RPC `method` (lower camel case) with `request`; rejects with a {@link CallFailure}. */
  call<T>(method: string, request: unknown): Promise<T>;
  /**
   * Handshake, then Configure with the emulator's URL and keys (the secret key as a secret), plus
   * `extra`; as the explicit provider of `providerUrn` when given (else the default provider).
   */
  configureFor(emu: TestEmulator, extra?: Props, providerUrn?: string): Promise<void>;
  /** Check of resource `name`; `news` and `olds` as the engine gives them. */
  check(
    type: string,
    name: string,
    news: Props,
    olds?: Props,
  ): Promise<{ inputs: Props; failures: ProviderPb.CheckFailure.AsObject[] }>;
  /** Diff of resource `name`. */
  diff(
    type: string,
    name: string,
    id: string,
    olds: Props,
    news: Props,
  ): Promise<ProviderPb.DiffResponse.AsObject>;
  /** Create (`preview` for a preview's), with the request's `timeout` in seconds. */
  create(
    type: string,
    name: string,
    inputs: Props,
    options?: { preview?: boolean; timeout?: number },
  ): Promise<{ id: string; properties: Props }>;
  /** Read of `id`, with the last outputs and inputs when given (refresh), or none (import). */
  read(
    type: string,
    name: string,
    id: string,
    properties?: Props,
    inputs?: Props,
  ): Promise<{ id: string; properties?: Props; inputs?: Props }>;
  /** Update (`preview` for a preview's). */
  update(
    type: string,
    name: string,
    id: string,
    olds: Props,
    news: Props,
    options?: { preview?: boolean; timeout?: number },
  ): Promise<Props>;
  /** Delete. */
  delete(type: string, name: string, id: string, properties: Props): Promise<void>;
  /** Stops the plugin and the engine. */
  close(): Promise<void>;
}

/** The detail of a partial failure, from a failed call's metadata. */
function initFailedOf(error: grpc.ServiceError): CallFailure["initFailed"] {
  const raw = error.metadata?.get(STATUS_DETAILS_KEY)[0];
  if (!raw) return undefined;
  const pb = protocol();
  const status = pb.status.Status.deserializeBinary(raw as Buffer);
  for (const any of status.getDetailsList()) {
    if (any.getTypeName() !== INIT_FAILED_TYPE) continue;
    const detail = pb.provider.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
    return {
      id: detail.getId(),
      properties: (detail.getProperties()?.toJavaScript() ?? {}) as Props,
      reasons: detail.getReasonsList(),
    };
  }
  return undefined;
}

/** Starts a stand-in engine that keeps its `Log` lines in `logs`; resolves with its address and server. */
async function startEngine(logs: LoggedLine[]): Promise<{ address: string; server: grpc.Server }> {
  const pb = protocol();
  const server = new grpc.Server();
  server.addService(pb.engineService as unknown as grpc.ServiceDefinition, {
    log: (
      call: grpc.ServerUnaryCall<InstanceType<typeof pb.engine.LogRequest>, unknown>,
      callback: grpc.sendUnaryData<unknown>,
    ) => {
      const request = call.request;
      logs.push({ severity: request.getSeverity(), message: request.getMessage(), urn: request.getUrn() });
      callback(null, new pb.empty.Empty());
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) =>
      e ? reject(e) : resolve(p),
    ),
  );
  return { address: `127.0.0.1:${port}`, server };
}

/** Starts the plugin over a fresh context, and a stand-in engine it logs to. */
export async function startTestPlugin(
  options: { engine?: boolean; schemaFile?: string } = {},
): Promise<TestPlugin> {
  const pb = protocol();
  const logs: LoggedLine[] = [];
  const engine = options.engine === false ? undefined : await startEngine(logs);
  const server = await startPlugin({ engineAddress: engine?.address, schemaFile: options.schemaFile });
  const Client = grpc.makeGenericClientConstructor(
    pb.providerService as unknown as grpc.ServiceDefinition,
    "ResourceProvider",
  );
  const client = new Client(
    `127.0.0.1:${server.port}`,
    grpc.credentials.createInsecure(),
  ) as unknown as Record<
    string,
    (request: unknown, callback: (error: grpc.ServiceError | null, response: unknown) => void) => void
  >;
  const call = <T>(method: string, request: unknown): Promise<T> =>
    new Promise((resolve, reject) =>
      client[method](request, (error, response) =>
        error
          ? reject({
              code: error.code,
              message: error.details,
              initFailed: initFailedOf(error),
            } satisfies CallFailure)
          : resolve(response as T),
      ),
    );
  const p = pb.provider;
  const props = (s: Struct | undefined): Props => (s?.toJavaScript() ?? {}) as Props;
  const plugin: TestPlugin = {
    server,
    logs,
    call,
    async configureFor(emu, extra = {}, providerUrn) {
      await call("handshake", new p.ProviderHandshakeRequest().setEngineAddress(engine?.address ?? ""));
      const args = {
        apiUrl: emu.url,
        publicKey: emu.credentials.publicKey,
        secretKey: secret(emu.credentials.secretKey),
        projectId: emu.credentials.projectId,
        ...extra,
      };
      const request = new p.ConfigureRequest().setArgs(struct(args)).setAcceptsecrets(true);
      if (providerUrn) request.setUrn(providerUrn);
      await call("configure", request);
    },
    async check(type, name, news, olds = {}) {
      const request = new p.CheckRequest().setUrn(urnOf(type, name)).setType(type).setName(name);
      request.setNews(struct(news)).setOlds(struct(olds));
      const response = await call<ProviderPb.CheckResponse>("check", request);
      return { inputs: props(response.getInputs()), failures: response.toObject().failuresList };
    },
    async diff(type, name, id, olds, news) {
      const request = new p.DiffRequest().setUrn(urnOf(type, name)).setType(type).setName(name).setId(id);
      request.setOlds(struct(olds)).setNews(struct(news));
      return (await call<ProviderPb.DiffResponse>("diff", request)).toObject();
    },
    async create(type, name, inputs, options = {}) {
      const request = new p.CreateRequest().setUrn(urnOf(type, name)).setType(type).setName(name);
      request
        .setProperties(struct(inputs))
        .setPreview(options.preview ?? false)
        .setTimeout(options.timeout ?? 0);
      const response = await call<ProviderPb.CreateResponse>("create", request);
      return { id: response.getId(), properties: props(response.getProperties()) };
    },
    async read(type, name, id, properties, inputs) {
      const request = new p.ReadRequest().setUrn(urnOf(type, name)).setType(type).setName(name).setId(id);
      if (properties) request.setProperties(struct(properties));
      if (inputs) request.setInputs(struct(inputs));
      const response = await call<ProviderPb.ReadResponse>("read", request);
      return {
        id: response.getId(),
        properties: response.getProperties() ? props(response.getProperties()) : undefined,
        inputs: response.getInputs() ? props(response.getInputs()) : undefined,
      };
    },
    async update(type, name, id, olds, news, options = {}) {
      const request = new p.UpdateRequest().setUrn(urnOf(type, name)).setType(type).setName(name).setId(id);
      request
        .setOlds(struct(olds))
        .setNews(struct(news))
        .setPreview(options.preview ?? false);
      request.setTimeout(options.timeout ?? 0);
      return props((await call<ProviderPb.UpdateResponse>("update", request)).getProperties());
    },
    async delete(type, name, id, properties) {
      const request = new p.DeleteRequest().setUrn(urnOf(type, name)).setType(type).setName(name).setId(id);
      await call("delete", request.setProperties(struct(properties)));
    },
    async close() {
      (client as unknown as grpc.Client).close();
      await server.stop();
      if (engine) await new Promise<void>((resolve) => engine.server.tryShutdown(() => resolve()));
    },
  };
  return plugin;
}
