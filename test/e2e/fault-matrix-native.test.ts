/**
 * The fault matrix on the native plugin `mdb` (the matrix program through its generated SDK),
 * part 1 of 2: the first half of its cover, NATIVE_COVER in test/e2e/fault-matrix-suite.ts (the
 * whole life, each failure and each follow-up), checked cell by cell as on the dynamic face
 * (docs/recovery.md#the-fault-matrix); part 2 is fault-matrix-native-2.test.ts.
 */
import { faultMatrix } from "./fault-matrix-suite";

faultMatrix(1, "native");
