/**
 * Pulumi's runtime mocks as the unit tests of programs use them: every resource the program
 * registers is recorded, and its state is its inputs (plus what the test's provider adds).
 */
import * as pulumi from "@pulumi/pulumi";

/** A resource the mocked engine was asked to register. */
export interface Registered {
  /** Its type token. */
  type: string;
  /** Its name. */
  name: string;
  /** The inputs it was registered with. */
  inputs: Record<string, unknown>;
  /** The reference of its explicit provider (`<urn>::<id>`), when it names one. */
  provider?: string;
}

/**
 * Sets the mocks for the stack `test` of `project`; resolves with the list every registration
 * from now on is appended to. A resource's id is `<name>-id`, its state its inputs and `outputs`.
 */
export async function mockEngine(
  project: string,
  outputs: (resource: Registered) => Record<string, unknown> = () => ({}),
): Promise<Registered[]> {
  const registered: Registered[] = [];
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        const resource = { type: args.type, name: args.name, inputs: args.inputs, provider: args.provider };
        registered.push(resource);
        return { id: `${args.name}-id`, state: { ...args.inputs, ...outputs(resource) } };
      },
      call: (args) => args.inputs,
    },
    project,
    "test",
  );
  return registered;
}
