/**
 * The fault matrix, part 2 of 2 (test/e2e/fault-matrix-suite.ts says which cells each part runs;
 * docs/recovery.md#the-fault-matrix shows the table).
 */
import { faultMatrix } from "./fault-matrix-suite";

faultMatrix(2);
