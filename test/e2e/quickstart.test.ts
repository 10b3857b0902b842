/** The quickstart on the dynamic classes (see quickstart-suite.ts). */
import { quickstartSuite } from "./quickstart-suite";

jest.setTimeout(240_000);

quickstartSuite("dynamic");
