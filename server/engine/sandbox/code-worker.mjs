// Entry of a code worker thread: TypeScript sources load through tsx (as bin/acts does), so the
// worker runs the same way under the server, the CLI and the tests.
import { register } from 'tsx/esm/api';

register();
await import('./code-worker.ts');
