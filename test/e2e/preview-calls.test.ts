/** Previews that list the API calls, on the dynamic classes (see preview-calls-suite.ts). */
import { previewCallsSuite } from "./preview-calls-suite";

jest.setTimeout(600_000);

previewCallsSuite("dynamic");
