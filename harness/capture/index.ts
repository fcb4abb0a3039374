export { KINDS, isKind, type Kind } from './kinds.ts';
export { detectKind, kindOfValue, looksLikeErrorText } from './detectKind.ts';
export { judgeCapture, judgeStream, StreamJudge, type CaptureVerdict, type CaptureViolation, type JudgeCaptureOptions } from './judgeCapture.ts';
