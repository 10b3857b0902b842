/**
 * The fault matrix on the native plugin `mdb` (the matrix program through its generated SDK):
 * its cover, NATIVE_COVER in test/e2e/fault-matrix-suite.ts (the first nine steps of the life, each
 * failure but `away` and each follow-up), checked cell by cell as on the dynamic face
 * (docs/recovery.md#the-fault-matrix).
 */
import { faultMatrix } from "./fault-matrix-suite";

faultMatrix(1, "native");
