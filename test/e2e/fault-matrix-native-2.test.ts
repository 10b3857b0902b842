/**
 * The fault matrix on the native plugin `mdb`, part 2 of 2: the second half of its cover,
 * NATIVE_COVER in test/e2e/fault-matrix-suite.ts (part 1 is fault-matrix-native.test.ts).
 */
import { faultMatrix } from "./fault-matrix-suite";

faultMatrix(2, "native");
