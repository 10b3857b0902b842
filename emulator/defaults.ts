/**
 * Defaults of the emulator, shared by the CLI, the in-process API, the tests, the docs and the demo,
 * so that everyone agrees on the development credentials and the address without copying literals.
 */

/** Public key (HTTP Basic user name) accepted when neither a flag nor `MDB_PUBLIC_KEY` sets one. */
export const DEFAULT_PUBLIC_KEY = "mdb-dev-public";
/** Secret key (HTTP Basic password) accepted when neither a flag nor `MDB_SECRET_KEY` sets one. */
export const DEFAULT_SECRET_KEY = "mdb-dev-secret";
/** The one project the accepted key reaches when neither a flag nor `MDB_PROJECT_ID` sets one. */
export const DEFAULT_PROJECT_ID = "proj-dev";

/** Interface the emulator listens on: loopback, so development credentials never leave the machine. */
export const DEFAULT_HOST = "127.0.0.1";
/** TCP port of the CLI (`--port`); 0 picks a free port. The in-process API defaults to 0. */
export const DEFAULT_PORT = 8080;
/** Duration of one lifecycle step in milliseconds for the CLI: slow enough that a demo looks real. */
export const DEFAULT_TRANSITION_MS = 3000;

/** Path prefix of the API, as the spec fixes it: `{base_url}` ends with it. */
export const API_PREFIX = "/public/api/v1";
/**
 * Path, below {@link API_PREFIX}, of the OpenAPI document of the dialect spoken: served without
 * credentials, as OpenAPI tools fetch documents.
 */
export const OPENAPI_PATH = "/openapi.json";
/** Path prefix of the emulator's own admin routes (never faulted, never in the request log). */
export const ADMIN_PREFIX = "/_emulator";

/** Region of a created service whose request names none. */
export const DEFAULT_REGION_CODE = "us-east-1";
/** CPU of a created service whose request names none, in milli-cores. */
export const DEFAULT_CPU_MILLIS = 500;
/** Memory of a created service whose request names none, in gigabytes. */
export const DEFAULT_MEMORY_GBS = 2;
/** Storage type of every service; the spec does not list the allowed values. */
export const DEFAULT_VOLUME_TYPE = "dynamic";

/** Port of a service's and a replica set's database endpoint. */
export const DATABASE_PORT = 5432;
/** Port of the connection pooler's endpoint. */
export const POOLER_PORT = 6432;
/** Domain under which the emulator names endpoint hosts; they do not resolve, as nothing listens there. */
export const ENDPOINT_DOMAIN = "mdb.local";
