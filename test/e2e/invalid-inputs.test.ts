/** Bad input at preview, on the dynamic classes (see invalid-inputs-suite.ts). */
import { invalidInputsSuite } from "./invalid-inputs-suite";

jest.setTimeout(300_000);

invalidInputsSuite("dynamic");
