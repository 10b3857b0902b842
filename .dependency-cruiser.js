/**
 * The layer rules of the source (docs/architecture.md), checked by `npm run check:deps` (part of
 * `npm test`): no import circles; `api/` imports nothing of ours; the emulator never imports the
 * provider nor the provider the emulator; the kit never imports a resource (it reads resources
 * through their definitions, handed to it); the client never knows about Pulumi; only the
 * registry and the public surfaces list the resource kinds. Type-only imports count too.
 */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle: modules that load each other. Move the shared part below both.",
      from: {},
      to: { circular: true },
    },
    {
      name: "api-imports-nothing-of-ours",
      severity: "error",
      comment: "api/ is the contract under everything: it imports no other folder of the package.",
      from: { path: "^api/" },
      to: { path: "^(provider|emulator|policy|scripts|test)/" },
    },
    {
      name: "emulator-not-provider",
      severity: "error",
      comment: "The emulator stands on api/ only; it never imports the provider.",
      from: { path: "^emulator/" },
      to: { path: "^provider/" },
    },
    {
      name: "databases-behind-their-hooks",
      severity: "error",
      comment:
        "The emulator's control plane knows the real servers (emulator/databases/) through " +
        "databases/hooks.ts alone; only server.ts starts the room.",
      from: { path: "^emulator/", pathNot: ["^emulator/databases/", "^emulator/server\\.ts$"] },
      to: { path: "^emulator/databases/", pathNot: ["^emulator/databases/hooks\\.ts$"] },
    },
    {
      name: "databases-not-control-plane",
      severity: "error",
      comment:
        "emulator/databases/ acts on the records it is handed (store types); it never calls the " +
        "model, the lifecycle or the routes.",
      from: { path: "^emulator/databases/" },
      to: { path: "^emulator/", pathNot: ["^emulator/databases/", "^emulator/store\\.ts$"] },
    },
    {
      name: "provider-not-emulator",
      severity: "error",
      comment: "The provider stands on api/ only; it never imports the emulator.",
      from: { path: "^provider/" },
      to: { path: "^emulator/" },
    },
    {
      name: "kit-not-resources",
      severity: "error",
      comment: "The kit is generic: it never imports a resource, a function or the component.",
      from: { path: "^provider/kit/" },
      to: { path: "^provider/(resources|functions|components|host|index)" },
    },
    {
      name: "kit-engine-neutral",
      severity: "error",
      comment:
        "The kit is the one implementation both faces share: it imports no Pulumi SDK and no " +
        "adapter (each face adapts the engine's calls to the kit, never the reverse).",
      from: { path: "^provider/kit/" },
      to: { path: "(^node_modules/@pulumi/|^provider/adapters/)" },
    },
    {
      name: "faces-apart",
      severity: "error",
      comment:
        "The dynamic face and the plugin are two thin adapters over the kit: neither imports the other.",
      from: { path: "^provider/adapters/([^/]+)/" },
      to: { path: "^provider/adapters/", pathNot: ["^provider/adapters/$1/"] },
    },
    {
      name: "client-knows-no-pulumi",
      severity: "error",
      comment: "The client is plain HTTP: it never imports Pulumi nor the provider's other rooms.",
      from: { path: "^provider/client/" },
      to: {
        path: "(^node_modules/@pulumi/|^provider/(kit|resources|functions|components|pulumi-contract)/)",
      },
    },
    {
      name: "pulumi-contract-stands-alone",
      severity: "error",
      comment:
        "provider/pulumi-contract/ holds the reliances on Pulumi's unpublished behaviour, below the " +
        "kit: it imports no other room of the provider.",
      from: { path: "^provider/pulumi-contract/" },
      to: { path: "^provider/", pathNot: ["^provider/pulumi-contract/"] },
    },
    {
      name: "resources-not-each-other",
      severity: "error",
      comment: "A resource's folder imports no other resource's folder: shared parts go to the kit.",
      from: { path: "^provider/resources/([^/]+)/" },
      to: { path: "^provider/resources/", pathNot: ["^provider/resources/$1/"] },
    },
    {
      name: "registry-is-the-list-of-kinds",
      severity: "error",
      comment:
        "Only the registry, the host, the public surfaces, the functions and the component import " +
        "resource folders; the kit reads the kinds through the registry's definitions.",
      from: {
        path: "^provider/",
        pathNot: [
          "^provider/resources/",
          "^provider/index\\.ts$",
          "^provider/native\\.ts$",
          "^provider/enums\\.ts$",
          "^provider/functions/",
          "^provider/components/",
        ],
      },
      to: { path: "^provider/resources/[^/]+/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    includeOnly: "^(api|provider|emulator)/|^node_modules/@pulumi/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.build.json" },
    exclude: { path: "\\.d\\.ts$" },
  },
};
