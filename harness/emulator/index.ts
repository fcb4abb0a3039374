export { createApp, routesOf, basePath } from './app.ts';
export { CHOICES } from './choices.ts';
export { createContext, type EmulatorContext } from './context.ts';
export { CROSSED_IN_FLIGHT, FAULTS, inFlightAbove, isFaultId, UNDER_LOAD_IN_FLIGHT, type FaultDef, type FaultId } from './faults/catalogue.ts';
export type { EmulatorOptions, KeyBalance } from './options.ts';
export { generateKey, startEmulator, type RunningEmulator, type StartOptions } from './server.ts';
export { DEFAULT_CONCURRENCY } from './context.ts';
