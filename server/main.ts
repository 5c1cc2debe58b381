// `npm start`: read the settings, then serve with one process or several (server/cluster.ts).
import { runServer } from './cluster.js';
import { readConfig, usage, type Config } from './config.js';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = readConfig(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    process.exit(2);
  }
  await runServer(config);
}

main().catch((error: unknown) => {
  console.error(`evap server failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
