// Exports the version and executable of the Node.js that runs this program, and of the one that
// runs its dynamic provider (a separate process the engine starts through
// pulumi-resource-pulumi-nodejs), so a test can compare them with its own.
import * as pulumi from "@pulumi/pulumi";

const provider: pulumi.dynamic.ResourceProvider = {
  async create() {
    return { id: "node", outs: { version: process.version, execPath: process.execPath } };
  },
};

class NodeReport extends pulumi.dynamic.Resource {
  declare readonly version: pulumi.Output<string>;
  declare readonly execPath: pulumi.Output<string>;

  constructor(name: string) {
    super(provider, name, { version: undefined, execPath: undefined }, {});
  }
}

const report = new NodeReport("provider-node");
export const program = { version: process.version, execPath: process.execPath };
export const dynamicProvider = { version: report.version, execPath: report.execPath };
