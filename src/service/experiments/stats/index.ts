export { analyzeTest, LOSE_CHANCE, MIN_TOTAL_FOR_VERDICT, WIN_CHANCE } from './analyze';
export type { AnalysisInput, MetricAnalysis, MetricData, VariantAnalysis } from './analyze';
export { bayesianTest, expectedPositivePart } from './bayesian';
export type { BayesianResult } from './bayesian';
export { adjustedLevel, adjustPValues } from './corrections';
export type { PValueCorrection } from './corrections';
export {
  ALPHA,
  DEFAULT_SEQUENTIAL_TUNING,
  sequentialRho,
  sequentialTest,
  welchTest,
} from './frequentist';
export type { FrequentistResult } from './frequentist';
export {
  MULTIPLE_EXPOSURES_PERCENT,
  multipleExposuresWarning,
  SRM_MIN_UNITS,
  SRM_P_THRESHOLD,
  sampleRatioMismatch,
} from './health';
export type { SampleRatioMismatch } from './health';
export { isLift, meanAndVariance, relativeLift } from './moments';
export type { Lift, MeanAndVariance, NoLift, SufficientStats } from './moments';
