/** Previews that list the API calls, on the native plugin through its SDK (see preview-calls-suite.ts). */
import { previewCallsSuite } from "./preview-calls-suite";

jest.setTimeout(600_000);

previewCallsSuite("native");
