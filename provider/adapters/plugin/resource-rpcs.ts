/**
 * The resource RPCs over the kit: each takes the engine's request, hands the kit its properties
 * as plain values (secrets unwrapped, the dynamic classes' hidden inputs of a state moved by
 * alias left out) with the call's context, and answers with what the kit returned, secrets
 * wrapped again: every secret row of the field table, and every property the engine handed over
 * as a secret. What the engine does itself, the plugin leaves to it: the `import` option and
 * `pulumi import` are a Read with only an id; `customTimeouts` come in each request.
 */
import type * as pb from "@pulumi/pulumi/proto/provider_pb";
import type { Empty } from "google-protobuf/google/protobuf/empty_pb";
import type { DetailedDiffResult } from "../../kit/fields/diff";
import { withAutoNamedKept, withGeneratedName } from "../../kit/fields/naming";
import { withoutDynamicFaceInputs } from "../../kit/hidden";
import { PartialFailure } from "../../kit/lifecycle/partial";
import { previewOutputs } from "../../kit/preview/outputs";
import type { Props, ResourceSpec } from "../../kit/spec";
import { protocol } from "../../pulumi-contract/grpc-protocol";
import { type PluginContext, callOf } from "./context";
import { InitFailed } from "./errors";
import type { Kind } from "./kinds";
import { type Received, namesOf, received, redact, secretTexts, toStruct } from "./values";
import { parseUrn } from "./urn";

/** The request fields every resource RPC has. */
interface AboutResource {
  getUrn(): string;
  getType(): string;
}

/** The type of the resource a request is about: its `type`, else its URN's. */
function kindOf(ctx: PluginContext, request: AboutResource): Kind {
  return ctx.kinds.of(request.getType() || parseUrn(request.getUrn()).type);
}

/** Properties of a state, without what a state moved from the dynamic classes carries besides its own. */
function storedState(struct: Parameters<typeof received>[0]): ReturnType<typeof received> {
  const { props, secrets } = received(struct);
  return { props: withoutDynamicFaceInputs(props), secrets };
}

/** What goes back secret: the field table's secret rows, and what the engine handed over as secrets. */
function secretsOf(spec: ResourceSpec, ...given: Set<string>[]): Set<string> {
  return namesOf(spec.secretOutputs, ...given);
}

/**
 * Runs `work` so that no error it throws shows a secret the engine handed over (`texts`), and a
 * partial create or update becomes the engine's (the resource is kept, its state's secrets
 * wrapped, `secret`).
 */
async function guarded<T>(texts: readonly string[], secret: Set<string>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PartialFailure) {
      const reasons = error.reasons.map((reason) => redact(reason, texts));
      throw new InitFailed(error.id, toStruct(error.properties, secret), reasons);
    }
    if (error instanceof Error) error.message = redact(error.message, texts);
    throw error;
  }
}

/**
 * The texts of the inputs a request handed over as secrets, which no message may show (see
 * `values.ts`); outputs the table keeps secret are the kit's to keep out of its words (a
 * connection's environment holds ordinary words beside its password).
 */
function textsOf(spec: ResourceSpec, ...given: Received[]): string[] {
  return given.flatMap((g) =>
    secretTexts(
      g.props,
      [...g.secrets].filter((p) => spec.inputNames.includes(p)),
    ),
  );
}

/** The engine's kind of a property diff. */
function diffKind(kind: DetailedDiffResult["detailedDiff"][string]["kind"]): pb.PropertyDiff.Kind {
  return protocol().provider.PropertyDiff.Kind[kind];
}

/** The resource RPCs of the plugin. */
export function resourceRpcs(ctx: PluginContext) {
  const pb = protocol().provider;
  return {
    /** Check: the program's inputs, a generated `name` when it gives none (from the URN), the kit's check. */
    async check(request: pb.CheckRequest): Promise<pb.CheckResponse> {
      const kind = kindOf(ctx, request);
      const urn = parseUrn(request.getUrn());
      const olds = storedState(request.getOlds());
      const news = received(request.getNews());
      const named = withGeneratedName(kind.spec.naming, news.props, olds.props, {
        project: urn.project,
        stack: urn.stack,
        resourceName: urn.name,
      });
      const texts = textsOf(kind.spec, news);
      const secret = secretsOf(kind.spec, news.secrets);
      const call = callOf(ctx, request.getUrn(), { secretInputs: news.secrets, secretTexts: texts });
      const checked = await guarded(texts, secret, () => kind.kit.check(olds.props, named, call));
      const response = new pb.CheckResponse();
      response.setInputs(toStruct(checked.inputs, secret));
      response.setFailuresList(
        checked.failures.map((f) =>
          new pb.CheckFailure().setProperty(f.property).setReason(redact(f.reason, texts)),
        ),
      );
      return response;
    },

    /** Diff: the checked inputs against the last outputs, with the detail the engine knows. */
    async diff(request: pb.DiffRequest): Promise<pb.DiffResponse> {
      const kind = kindOf(ctx, request);
      const news = received(request.getNews());
      const olds = storedState(request.getOlds());
      const texts = textsOf(kind.spec, news, olds);
      const call = callOf(ctx, request.getUrn(), { secretInputs: news.secrets, secretTexts: texts });
      const diff = await guarded(texts, new Set(), () =>
        kind.kit.diff(request.getId(), olds.props, news.props, call),
      );
      const response = new pb.DiffResponse();
      response.setChanges(
        diff.changes ? pb.DiffResponse.DiffChanges.DIFF_SOME : pb.DiffResponse.DiffChanges.DIFF_NONE,
      );
      response.setReplacesList(diff.replaces);
      response.setStablesList(diff.stables);
      response.setDeletebeforereplace(diff.deleteBeforeReplace);
      response.setDiffsList(Object.keys(diff.detailedDiff));
      response.setHasdetaileddiff(true);
      const detailed = response.getDetaileddiffMap();
      for (const [property, { kind: change, inputDiff }] of Object.entries(diff.detailedDiff))
        detailed.set(property, new pb.PropertyDiff().setKind(diffKind(change)).setInputdiff(inputDiff));
      return response;
    },

    /** Create: the kit's create, or (preview) the outputs as far as they are known. */
    async create(request: pb.CreateRequest): Promise<pb.CreateResponse> {
      const kind = kindOf(ctx, request);
      const inputs = received(request.getProperties());
      const secret = secretsOf(kind.spec, inputs.secrets);
      const response = new pb.CreateResponse();
      if (request.getPreview()) {
        response.setProperties(toStruct(previewOutputs(kind.spec, inputs.props), secret));
        return response;
      }
      const texts = textsOf(kind.spec, inputs);
      const call = callOf(ctx, request.getUrn(), {
        timeoutSeconds: request.getTimeout(),
        secretInputs: inputs.secrets,
        secretTexts: texts,
      });
      const made = await guarded(texts, secret, () => kind.kit.create(inputs.props, call));
      response.setId(made.id);
      response.setProperties(toStruct(made.outs, secret));
      return response;
    },

    /**
     * Read: refresh (the last outputs and inputs given), and import (an id alone: the kit finds
     * the project); the inputs that reproduce the resource come back, so the next preview is clean.
     */
    async read(request: pb.ReadRequest): Promise<pb.ReadResponse> {
      const kind = kindOf(ctx, request);
      const props = storedState(request.getProperties());
      const inputs = storedState(request.getInputs());
      const texts = textsOf(kind.spec, props, inputs);
      const secret = secretsOf(kind.spec, props.secrets, inputs.secrets);
      const call = callOf(ctx, request.getUrn(), { secretTexts: texts });
      const found = await guarded(texts, secret, () => kind.kit.read(request.getId(), props.props, call));
      const response = new pb.ReadResponse();
      if (!found.id || !found.props) return response;
      response.setId(found.id);
      response.setProperties(toStruct(found.props, secret));
      if (found.inputs) response.setInputs(toStruct(withAutoNamedKept(found.inputs, inputs.props), secret));
      return response;
    },

    /** Update: the kit's update, or (preview) the outputs as far as they are known. */
    async update(request: pb.UpdateRequest): Promise<pb.UpdateResponse> {
      const kind = kindOf(ctx, request);
      const olds = storedState(request.getOlds());
      const news = received(request.getNews());
      const secret = secretsOf(kind.spec, news.secrets);
      const response = new pb.UpdateResponse();
      if (request.getPreview()) {
        response.setProperties(toStruct(previewOutputs(kind.spec, news.props, olds.props), secret));
        return response;
      }
      const texts = textsOf(kind.spec, news, olds);
      const call = callOf(ctx, request.getUrn(), {
        timeoutSeconds: request.getTimeout(),
        secretInputs: news.secrets,
        secretTexts: texts,
      });
      const updated = await guarded(texts, secret, () =>
        kind.kit.update(request.getId(), olds.props, news.props, call),
      );
      response.setProperties(toStruct(updated.outs, secret));
      return response;
    },

    /** Delete: the kit's delete of the resource whose last outputs the engine gives. */
    async delete(request: pb.DeleteRequest): Promise<Empty> {
      const kind = kindOf(ctx, request);
      const state = storedState(request.getProperties());
      const props: Props = state.props;
      const texts = textsOf(kind.spec, state);
      const call = callOf(ctx, request.getUrn(), {
        timeoutSeconds: request.getTimeout(),
        secretTexts: texts,
      });
      await guarded(texts, new Set(), () => kind.kit.delete(request.getId(), props, call));
      return new (protocol().empty.Empty)();
    },
  };
}
