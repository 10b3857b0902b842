/** Bad input at preview, on the native plugin's types (see invalid-inputs-suite.ts). */
import { invalidInputsSuite } from "./invalid-inputs-suite";

jest.setTimeout(300_000);

invalidInputsSuite("native");
