import { x } from '#harness/core/x.ts';
export async function main(argv: string[]): Promise<number> { console.log('hi', x, argv); return 0; }
