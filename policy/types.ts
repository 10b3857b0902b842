// The @pulumi/policy types the policies are written against, re-exported so that code outside this
// directory (the repo's tests, whose node_modules has no @pulumi/policy) can name them.

export type {
  EnforcementLevel,
  Policy,
  PolicyConfigSchema,
  PolicyResource,
  PolicyResourceOptions,
  ReportViolation,
  ResourceValidation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";
