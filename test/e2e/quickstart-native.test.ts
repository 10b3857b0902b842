/** The quickstart on the native plugin, through its generated SDK (see quickstart-suite.ts). */
import { quickstartSuite } from "./quickstart-suite";

jest.setTimeout(240_000);

quickstartSuite("native");
