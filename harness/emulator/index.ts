export { createApp, routesOf, basePath } from './app.ts';
export { CHOICES } from './choices.ts';
export { createContext, type EmulatorContext } from './context.ts';
export { FAULTS, isFaultId, type FaultDef, type FaultId } from './faults/catalogue.ts';
export type { EmulatorOptions, KeyBalance } from './options.ts';
export { generateKey, startEmulator, type RunningEmulator, type StartOptions } from './server.ts';
