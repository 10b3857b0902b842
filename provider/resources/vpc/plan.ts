/** How a `Vpc` changes in place: a rename, when the name differs (renameVpc answers the record). */
import type { Vpc as VpcRecord } from "../../client/schemas";
import type { Step } from "../../kit/lifecycle/steps";
import type { VpcInputs, VpcOutputs } from "./fields";

/** The calls that bring the observed VPC `have` to `want`. */
export function planVpc(have: VpcOutputs, want: VpcInputs): Step<VpcRecord>[] {
  if (have.name === want.name) return [];
  return [
    {
      op: "renameVpc",
      body: { name: want.name },
      detail: `${have.name} → ${want.name}`,
      answersRecord: true,
    },
  ];
}
