export { countTokens, measureOperation, type MeasureOptions, type OperationMeasure } from './measure';
export {
  checkDocumentLimits,
  checkOperationLimits,
  DEFAULT_QUERY_LIMITS,
  limitRefusal,
  measureWithin,
  type OperationLimitsInput,
  QUERY_TOO_COMPLEX,
  queryTooComplex,
  type LimitRule,
  type QueryLimits,
} from './limits';
export { QUERY_LIMITS_ENV, queryLimitsOf } from './env';
export {
  COST_DIRECTIVE,
  fieldCostsOf,
  PAGED_DIRECTIVE,
  type FieldCost,
  type FieldCosts,
} from './field-costs';
export { checkSourceNesting, checkVariablesNesting, sourceNesting, valueNesting } from './nesting';
