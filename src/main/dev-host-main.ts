import { main } from './dev-host.js';

await main();
