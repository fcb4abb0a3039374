// Starts one third-party mock server by hand and keeps it up until SIGINT/SIGTERM:
//   node --import tsx harness/testing/thirdParty/serve.ts aimock [--api-key sk-test-123]
//   node --import tsx harness/testing/thirdParty/serve.ts mock-openai-api
// Prints one line, `<name> <baseUrl>`, once the server answers.
import { startAimock, startMockOpenAiApi, type ThirdPartyServer } from './servers.ts';

const [name, ...rest] = process.argv.slice(2);
const keys: string[] = [];
for (let i = 0; i < rest.length; i += 1) if (rest[i] === '--api-key' && rest[i + 1] !== undefined) keys.push(rest[(i += 1)]!);

let server: ThirdPartyServer;
if (name === 'aimock') server = await startAimock(keys.length > 0 ? { apiKeys: keys } : {});
else if (name === 'mock-openai-api') server = await startMockOpenAiApi();
else {
  process.stderr.write('usage: serve.ts aimock [--api-key KEY]... | mock-openai-api\n');
  process.exit(2);
}
process.stdout.write(`${name} ${server.baseUrl}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().finally(() => process.exit(0));
  });
}
