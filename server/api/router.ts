/** The API's root router: one sub-router per resource. `AppRouter` is what clients import. */
import { auditRouter } from './routers/audit.ts';
import { controlRouter } from './routers/control.ts';
import { authRouter } from './routers/auth.ts';
import { draftsRouter } from './routers/drafts.ts';
import { healthRouter } from './routers/health.ts';
import { historyRouter } from './routers/history.ts';
import { inboxRouter } from './routers/inbox.ts';
import { insightsRouter } from './routers/insights.ts';
import { messagesRouter } from './routers/messages.ts';
import { modelsRouter } from './routers/models.ts';
import { packagesRouter } from './routers/packages.ts';
import { bulkRouter } from './routers/bulk.ts';
import { migrationsRouter } from './routers/migrations.ts';
import { processesRouter } from './routers/processes.ts';
import { secretsRouter } from './routers/secrets.ts';
import { stepTestsRouter } from './routers/step-tests.ts';
import { tasksRouter } from './routers/tasks.ts';
import { tokensRouter } from './routers/tokens.ts';
import { triggersRouter } from './routers/triggers.ts';
import { usersRouter } from './routers/users.ts';
import { groupsRouter } from './routers/groups.ts';
import { workersRouter } from './routers/workers.ts';
import { router } from './trpc.ts';

export const appRouter = router({
  auth: authRouter,
  models: modelsRouter,
  drafts: draftsRouter,
  processes: processesRouter,
  history: historyRouter,
  control: controlRouter,
  tasks: tasksRouter,
  inbox: inboxRouter,
  messages: messagesRouter,
  bulk: bulkRouter,
  migrations: migrationsRouter,
  triggers: triggersRouter,
  packages: packagesRouter,
  health: healthRouter,
  users: usersRouter,
  groups: groupsRouter,
  tokens: tokensRouter,
  audit: auditRouter,
  secrets: secretsRouter,
  workers: workersRouter,
  insights: insightsRouter,
  stepTests: stepTestsRouter,
});

export type AppRouter = typeof appRouter;
