/**
 * The enumerations of the resources' inputs as objects of their members, as a generated Pulumi
 * SDK has them (`mdb.ServiceType.POSTGRES` is `"POSTGRES"`), each also the type of its values.
 * A program may write either form; the code `pulumi import` writes for the generated SDK
 * (`@pulumi/mdb`) runs on this package's entries by changing its import. They are the field
 * tables' own enums (the schema's `mdb:index:<Name>` enum types), written nowhere else.
 */
import { environmentEnum } from "./kit/fields/rules";
import { forkStrategy, serviceTypeField } from "./resources/service/shapes";

/** Where a service runs: `PROD` or `DEV` (`environment`). */
export const Environment = environmentEnum.enum;
/** A member of {@link Environment}. */
export type Environment = (typeof Environment)[keyof typeof Environment];

/** The kind of service: `TIMESERIESDB`, `POSTGRES`, `VECTOR`, or the vendor's `TIMESCALEDB` (`serviceType`). */
export const ServiceType = serviceTypeField.enum;
/** A member of {@link ServiceType}. */
export type ServiceType = (typeof ServiceType)[keyof typeof ServiceType];

/** How a fork copies its source: `LAST_SNAPSHOT`, `NOW` or `PITR` (`forkFrom.strategy`). */
export const ForkStrategy = forkStrategy.enum;
/** A member of {@link ForkStrategy}. */
export type ForkStrategy = (typeof ForkStrategy)[keyof typeof ForkStrategy];
