/**
 * The provider's own RPCs: Handshake (the engine introduces itself; an engine that never does is
 * older than the plugin supports), CheckConfig (the `mdb:*` keys the provider reads, and no
 * other; an explicit provider's values too), DiffConfig (a change of settings never replaces the
 * provider, so never a resource: that includes a stack moved from the dynamic classes, whose old
 * provider's settings are not ours at all), Configure (the settings to the runtime) and Cancel (the runtime's cancel: waits
 * end, nothing new starts).
 */
import * as grpc from "@grpc/grpc-js";
import type * as pb from "@pulumi/pulumi/proto/provider_pb";
import type { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { type ConfigSource, configProblems, unknownConfigKeys } from "../../config";
import { isUnknown } from "../../kit/fields/check";
import { deepEqual } from "../../kit/fields/diff";
import type { Props } from "../../kit/spec";
import { protocol } from "../../pulumi-contract/grpc-protocol";
import type { PluginContext } from "./context";
import { RpcError } from "./errors";
import { PACKAGE } from "./kinds";
import { parseUrn } from "./urn";
import { received } from "./values";

/** The first Pulumi CLI that calls Handshake, which the plugin needs (see {@link requireHandshake}). */
export const MIN_PULUMI_CLI = "3.143.0";

/** Config keys the engine itself puts among a provider's settings (the package's version). */
const ENGINE_CONFIG_KEYS: ReadonlySet<string> = new Set(["version"]);

/**
 * Fails when the engine never called Handshake before configuring the plugin: an engine older
 * than {@link MIN_PULUMI_CLI}, which the plugin does not support (it relies on the protocol that
 * Handshake announces: secrets as such, previews of creates and updates, and the engine's address).
 */
function requireHandshake(ctx: PluginContext): void {
  if (ctx.handshake.done) return;
  throw new RpcError(
    grpc.status.FAILED_PRECONDITION,
    `the ${PACKAGE} plugin of pulumi-managed-db needs Pulumi CLI ${MIN_PULUMI_CLI} or later, and this CLI is ` +
      `older (it did not call the plugin's Handshake); upgrade the Pulumi CLI (\`pulumi version\` shows yours)`,
  );
}

/**
 * The settings as {@link ConfigSource} reads them (`mdb:apiUrl`), from the provider's settings;
 * `origin` names an explicit provider's arguments, where they came from.
 */
function configSource(settings: Props, origin?: string): ConfigSource {
  return {
    origin,
    get(key) {
      const value = settings[key.startsWith(`${PACKAGE}:`) ? key.slice(PACKAGE.length + 1) : key];
      if (value === undefined || value === null) return undefined;
      return typeof value === "string" ? value : JSON.stringify(value);
    },
  };
}

/**
 * The name of the provider of `urn` when the program declared it (an explicit provider, its whole
 * name even where it holds `::`); undefined for the engine's default provider of the package
 * (`default`, `default_0_1_0`) and for text that is not a URN.
 */
export function explicitProvider(urn: string): string | undefined {
  let name: string;
  try {
    name = parseUrn(urn).name;
  } catch {
    return undefined;
  }
  return name === "" || /^default(_|$)/.test(name) ? undefined : name;
}

/**
 * How messages name the settings of the provider of `urn`: `the arguments of provider prod` for
 * an explicit provider; undefined for the default provider (stack config) or no URN (older engines).
 */
function originOf(urn: string | undefined): string | undefined {
  const explicit = explicitProvider(urn ?? "");
  return explicit ? `the arguments of provider ${explicit}` : undefined;
}

/** The settings of a Configure request: its `args`, else (older engines) its `variables` (`mdb:apiUrl` keys). */
function settingsOf(request: pb.ConfigureRequest): Props {
  const args = request.getArgs();
  if (args) return received(args).props;
  const settings: Props = {};
  request.getVariablesMap().forEach((value, key) => {
    settings[key.startsWith(`${PACKAGE}:`) ? key.slice(PACKAGE.length + 1) : key] = value;
  });
  return settings;
}

/** The provider RPCs of the plugin. */
export function configRpcs(ctx: PluginContext) {
  const pb = protocol().provider;
  /** What the plugin supports, as Handshake and Configure both say it. */
  const features = { secrets: true, resources: false, outputs: false, autonaming: false };
  return {
    handshake(request: pb.ProviderHandshakeRequest): pb.ProviderHandshakeResponse {
      ctx.handshake.done = true;
      ctx.engine.setAddress(request.getEngineAddress());
      return new pb.ProviderHandshakeResponse()
        .setAcceptSecrets(features.secrets)
        .setAcceptResources(features.resources)
        .setAcceptOutputs(features.outputs)
        .setSupportsAutonamingConfiguration(features.autonaming);
    },

    checkConfig(request: pb.CheckRequest): pb.CheckResponse {
      requireHandshake(ctx);
      const settings = received(request.getNews()).props;
      const keys = Object.keys(settings).filter((k) => !ENGINE_CONFIG_KEYS.has(k));
      const problems = unknownConfigKeys(keys.map((key) => `${PACKAGE}:${key}`));
      // An explicit provider's values are judged here, on the provider, naming its arguments (once
      // all are known: a preview may not know one yet); the default provider's (stack config) by
      // each resource's check, as on the dynamic face.
      const origin = originOf(request.getUrn());
      if (origin && !Object.values(settings).some(isUnknown))
        problems.push(...configProblems(configSource(settings, origin)));
      const response = new pb.CheckResponse();
      // The settings as given: the engine keeps them, and diffs them with the next run's.
      const news = request.getNews();
      if (news) response.setInputs(news);
      // No property named: the engine would print the value beside it, a secret key's included.
      response.setFailuresList(
        problems.map((reason) => new pb.CheckFailure().setProperty("").setReason(reason)),
      );
      return response;
    },

    diffConfig(request: pb.DiffRequest): pb.DiffResponse {
      const olds = received(request.getOldInputs() ?? request.getOlds()).props;
      const news = received(request.getNews()).props;
      const response = new pb.DiffResponse();
      const detailed = response.getDetaileddiffMap();
      const changed = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter(
        (key) => !deepEqual(olds[key], news[key]),
      );
      for (const key of changed) {
        const kind = !(key in olds) ? "ADD" : !(key in news) ? "DELETE" : "UPDATE";
        detailed.set(key, new pb.PropertyDiff().setKind(pb.PropertyDiff.Kind[kind]).setInputdiff(true));
      }
      // Never a replacement: settings change how the API is reached, never which records are ours.
      response.setChanges(
        changed.length > 0 ? pb.DiffResponse.DiffChanges.DIFF_SOME : pb.DiffResponse.DiffChanges.DIFF_NONE,
      );
      response.setDiffsList(changed);
      response.setHasdetaileddiff(true);
      return response;
    },

    configure(request: pb.ConfigureRequest): pb.ConfigureResponse {
      requireHandshake(ctx);
      // An explicit provider's settings are its arguments: messages name them so (older engines
      // send no URN: stack config's keys).
      const source = configSource(settingsOf(request), originOf(request.getUrn()));
      for (const kind of ctx.kinds.all()) kind.kit.configure(source);
      const [urn, id] = [request.getUrn(), request.getId()];
      ctx.provider.reference = urn && id ? `${urn}::${id}` : undefined;
      return new pb.ConfigureResponse()
        .setAcceptsecrets(features.secrets)
        .setSupportspreview(true)
        .setAcceptresources(features.resources)
        .setAcceptoutputs(features.outputs)
        .setSupportsAutonamingConfiguration(features.autonaming);
    },

    cancel(): Empty {
      ctx.runtime.cancel();
      return new (protocol().empty.Empty)();
    },
  };
}
