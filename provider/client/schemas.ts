/**
 * The wire shapes of the API, for the provider: a re-export of the contract in `api/schemas.ts`,
 * so that `../client/schemas` keeps serving the resources.
 */
export * from "../../api/schemas";
