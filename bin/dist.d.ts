// Types of bin/dist.js, for the tests that import it.
export declare const DIST_ENTRY: string;
export declare const DIST_STAMP: string;
export declare function digestOf(root: string, inputs: readonly string[]): string;
export declare function freshDist(root: string): string | undefined;
