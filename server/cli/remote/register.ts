/**
 * The remote commands of `acts` (deploy, start, act, migrate, procs, tasks, package, secrets, groups, users, claim, release, delegate, reassign, vote): their flags and help. Each
 * command's module (and the tRPC client with it) is imported only when that command runs, so
 * the other commands start without it.
 */
import type { Command } from 'commander';
import { TASK_ACTIONS } from './actions.ts';
import { usage } from './failure.ts';
import type { HoldChange, ReassignFlags } from './claims.ts';
import type { Io } from './session.ts';

const collect = (value: string, previous: string[]) => [...previous, value];

const EXIT_HELP = `
Output: one JSON object per line on stdout. On failure, stderr ends with one JSON line
{"code","message","retryable"[,"details"]}; "code" is stable (the server's own code, or
usage.invalid, server.unreachable, server.bad_response).

Exit codes: 0 ok, 2 invalid input (usage, invalid model, inputs or options),
4 server unreachable or not an acts server, 5 token not accepted or role not allowed (auth.*),
6 refused by the server (not found, action refused, busy …).`;

const WAIT_HELP = `
With --wait: 0 completed (also aborted), 1 process error, 3 still running when --wait-timeout passed.`;

/** The connection flags every remote command takes. Defaults come from the environment, never shown in help. */
function remote(command: Command, extraHelp = ''): Command {
  // Usage errors the argument parser finds (a missing argument, an unknown flag) are JSON lines too.
  const asJson = (text: string, write: (s: string) => void) =>
    write(`${usage(`${text.trim().replace(/^error: /, '')} (see acts ${command.name()} --help)`).line()}\n`);
  return command
    .showHelpAfterError(false)
    .configureOutput({ outputError: asJson })
    .option('--server <url>', 'base URL of the acts server (default $ACTS_SERVER)')
    .option('--token <token>', 'API token acts_… (default $ACTS_TOKEN; prefer the variable, arguments show in ps)')
    .option('--request-timeout <secs>', 'give up on one request after this long (default 30)')
    .addHelpText('after', EXIT_HELP + extraHelp);
}

/** Adds the remote commands to `program`; `done` receives each command's exit code. */
export function addRemoteCommands(program: Command, io: Io, done: (code: number) => void): void {
  remote(
    program
      .command('deploy')
      .description('deploy a model file to a server as a new version; prints {"id","ver"}')
      .argument('<file>', 'the model file (YAML or JSON)')
      .option('--dry-run', 'only validate on the server; deploy nothing')
      .option('--note <text>', 'a note kept with the new version (shown in its history)')
      .option('--require-tests', "deploy only if the model's saved step tests (tests:) pass on the server (else model.tests_failed)"),
  ).action(async (file: string, flags) => {
    const { deployCommand } = await import('./deploy.ts');
    done(await deployCommand(file, flags, io));
  });

  remote(
    program
      .command('start')
      .description('start a process of a deployed model on a server; prints the process')
      .argument('<model-id>', 'the id of a deployed model')
      .option('--inputs <json>', 'start inputs as a JSON object')
      .option('--input <key=value>', 'one start input (value parsed as JSON when it is, else text); repeatable', collect, [])
      .option('--idempotency-key <key>', 'run the same start again with this key and get the first process back ("repeated":true) instead of a second one; at most 200 characters')
      .option('--wait', 'wait until the process finishes; then print a final line like acts run')
      .option('--wait-timeout <secs>', 'with --wait: stop waiting after this long (exit 3)'),
    WAIT_HELP,
  ).action(async (mid: string, flags) => {
    const { startCommand } = await import('./start.ts');
    done(await startCommand(mid, flags, io));
  });

  remote(
    program
      .command('act')
      .description('apply a client action to a task on a server; prints {"pid","tid","action"}')
      .argument('<pid>', 'process id')
      .argument('<tid>', 'task id (see acts tasks <pid>)')
      .argument('<action>', TASK_ACTIONS.join(' | '))
      .option('--options <json>', 'action options as a JSON object')
      .option('--option <key=value>', 'one action option (value parsed as JSON when it is, else text); repeatable', collect, []),
  ).action(async (pid: string, tid: string, action: string, flags) => {
    const { actCommand } = await import('./act.ts');
    done(await actCommand(pid, tid, action, flags, io));
  });

  remote(
    program
      .command('migrate')
      .description('move the running processes of one version of a model to another (or --check the plan); one JSON line per process, then the counts')
      .argument('<model-id>', 'the id of a deployed model')
      .option('--from <ver>', 'the version the processes run now')
      .option('--to <ver>', 'the version they move to')
      .option('--map <old=new>', 'a node of --from that is another node of --to (a renamed step or act); repeatable', collect, [])
      .option('--cancel <node>', 'a node --to does not have: cancel the live acts there instead of blocking their process; repeatable', collect, [])
      .option('--pid <pid>', 'only this process (default: every unfinished one of --from); repeatable', collect, [])
      .option('--proposed', "map every other node to the server's proposal (same id, same place for elements without an id, same kind and name)")
      .option('--check', 'validate the plan against each process and move nothing'),
  ).action(async (mid: string, flags) => {
    const { migrateCommand } = await import('./migrate.ts');
    done(await migrateCommand(mid, flags, io));
  });

  remote(
    program
      .command('procs')
      .description('list processes on a server, newest first; one JSON line each')
      .option('--model <id>', 'only processes of this model')
      .option('--state <state>', 'only processes in this state (running, completed, error, aborted …)')
      .option('--limit <n>', 'at most n processes (1–500, default 50)')
      .option('--offset <n>', 'skip the first n'),
  ).action(async (flags) => {
    const { procsCommand } = await import('./procs.ts');
    done(await procsCommand(flags, io));
  });

  remote(
    program
      .command('tasks')
      .description('list the tasks of a process, or with --inbox the open interrupts you may answer; one JSON line each')
      .argument('[pid]', 'process id')
      .option('--state <state>', 'only tasks in this state (e.g. interrupted)')
      .option('--inbox', 'your inbox instead of one process')
      .option('--model <id>', 'with --inbox: only tasks of this model')
      .option('--view <view>', "with --inbox: mine (held by you), groups (offered to you and your groups, held by no one) or all (default)")
      .option('--order <order>', 'with --inbox: oldest (default), newest, due (soonest first) or priority (highest first)')
      .option('--overdue', 'with --inbox: only the tasks past their due date')
      .option('--limit <n>', 'with --inbox: at most n tasks (1–500, default 50)')
      .option('--offset <n>', 'with --inbox: skip the first n'),
  ).action(async (pid: string | undefined, flags) => {
    const { tasksCommand } = await import('./tasks.ts');
    done(await tasksCommand(pid, flags, io));
  });

  remote(
    program
      .command('package')
      .description('declare (or change) an external package whose acts remote workers run; prints {"name","external"}')
      .argument('<name>', 'the package name, dotted lowercase words (e.g. ext.resize)')
      .requiredOption('--schema <file>', 'the JSON Schema of its params (a JSON file)')
      .option('--desc <text>', 'what it does (shown in the palette)'),
  ).action(async (name: string, flags) => {
    const { packageCommand } = await import('./package.ts');
    done(await packageCommand(name, flags, io));
  });

  addSecretsCommands(program, io, done);
  addGroupsCommands(program, io, done);
  addUsersCommands(program, io, done);
  addHoldCommands(program, io, done);
  addVoteCommand(program, io, done);
}

/** `acts groups list | create | remove | add | remove-member` (admins). */
function addGroupsCommands(program: Command, io: Io, done: (code: number) => void): void {
  const groups = program.command('groups').description('manage the groups interrupt acts are offered to (candidate_groups); admins');
  remote(groups.command('list').description('list the groups with their members; one JSON line each')).action(async (flags) => {
    const { groupsListCommand } = await import('./groups.ts');
    done(await groupsListCommand(flags, io));
  });
  remote(groups.command('create').description('create a group; prints it').argument('<name>', 'letters, digits, ".", "_" or "-"').option('--desc <text>', 'what the group does')).action(
    async (name: string, flags) => {
      const { groupsCreateCommand } = await import('./groups.ts');
      done(await groupsCreateCommand(name, flags, io));
    },
  );
  remote(groups.command('remove').description('remove a group (its members leave it); prints {"name","removed":true}').argument('<name>', 'the group')).action(async (name: string, flags) => {
    const { groupsRemoveCommand } = await import('./groups.ts');
    done(await groupsRemoveCommand(name, flags, io));
  });
  for (const [command, member] of [['add', true], ['remove-member', false]] as const) {
    remote(
      groups
        .command(command)
        .description(`${member ? 'add a user to' : 'take a user out of'} a group; prints {"group","user","groups"}`)
        .argument('<group>', 'the group')
        .argument('<user>', 'the user name'),
    ).action(async (group: string, user: string, flags) => {
      const { groupsMemberCommand } = await import('./groups.ts');
      done(await groupsMemberCommand(group, user, member, flags, io));
    });
  }
}

/** `acts users list | email` (admins). */
function addUsersCommands(program: Command, io: Io, done: (code: number) => void): void {
  const users = program.command('users').description('list users and set the address inbox notifications go to; admins');
  remote(users.command('list').description('list the users; one JSON line each')).action(async (flags) => {
    const { usersListCommand } = await import('./users.ts');
    done(await usersListCommand(flags, io));
  });
  remote(
    users
      .command('email')
      .description('set (or with --none remove) the e-mail address of a user; prints the user')
      .argument('<user>', 'the user name')
      .argument('[address]', 'local@domain')
      .option('--none', 'remove the address: no e-mail for this user'),
  ).action(async (user: string, address: string | undefined, flags) => {
    const { usersEmailCommand } = await import('./users.ts');
    done(await usersEmailCommand(user, address, flags, io));
  });
}

/** `acts claim | release | delegate | reassign`: who works on an open inbox task. */
function addHoldCommands(program: Command, io: Io, done: (code: number) => void): void {
  const run = async (change: HoldChange, pid: string, tid: string, to: string | undefined, flags: ReassignFlags) => {
    const { holdCommand } = await import('./claims.ts');
    done(await holdCommand(change, pid, tid, to, flags, io));
  };
  remote(program.command('claim').description('take an open task into your hands; prints {"pid","tid","holder","delegator"}').argument('<pid>').argument('<tid>')).action(
    (pid: string, tid: string, flags) => run('claim', pid, tid, undefined, flags),
  );
  remote(program.command('release').description('let go of a task you hold (a delegated one returns to its delegator)').argument('<pid>').argument('<tid>')).action(
    (pid: string, tid: string, flags) => run('release', pid, tid, undefined, flags),
  );
  remote(program.command('delegate').description('hand a task you hold to another operator').argument('<pid>').argument('<tid>').argument('<user>', 'who answers it')).action(
    (pid: string, tid: string, user: string, flags) => run('delegate', pid, tid, user, flags),
  );
  remote(
    program
      .command('reassign')
      .description('admins: give a task to an operator, or free it with --nobody')
      .argument('<pid>')
      .argument('<tid>')
      .argument('[user]', 'who holds it next')
      .option('--nobody', 'free the task instead'),
  ).action((pid: string, tid: string, user: string | undefined, flags) => run('reassign', pid, tid, user, flags));
}

/** `acts vote`: the caller's vote on a task decided by several people. */
function addVoteCommand(program: Command, io: Io, done: (code: number) => void): void {
  remote(
    program
      .command('vote')
      .description('approve or reject an open task decided by votes (each person once); prints {"pid","tid","decision","approvals","rejections","need"}')
      .argument('<pid>')
      .argument('<tid>')
      .argument('<decision>', 'approve or reject')
      .option('--comment <text>', 'why, kept with the vote'),
  ).action(async (pid: string, tid: string, decision: string, flags) => {
    const { voteCommand } = await import('./votes.ts');
    done(await voteCommand(pid, tid, decision, flags, io));
  });
}

/** `acts secrets list | set | delete` (admins). */
function addSecretsCommands(program: Command, io: Io, done: (code: number) => void): void {
  const secrets = program.command('secrets').description("manage the server's secrets (admins); values are never printed");
  remote(secrets.command('list').description('list the secrets by name, with who changed them when; one JSON line each')).action(async (flags) => {
    const { secretsListCommand } = await import('./secrets.ts');
    done(await secretsListCommand(flags, io));
  });
  remote(
    secrets
      .command('set')
      .description('create or replace a secret; the value comes from stdin (or --from-env), never an argument; prints {"name","created"}')
      .argument('<name>', 'upper-case letters, digits and _, starting with a letter (e.g. API_TOKEN)')
      .option('--from-env <var>', 'take the value from this environment variable instead of stdin'),
  ).action(async (name: string, flags) => {
    const { secretsSetCommand } = await import('./secrets.ts');
    done(await secretsSetCommand(name, flags, io));
  });
  remote(secrets.command('delete').description('delete a secret; prints {"name","deleted":true}').argument('<name>', 'the secret')).action(async (name: string, flags) => {
    const { secretsDeleteCommand } = await import('./secrets.ts');
    done(await secretsDeleteCommand(name, flags, io));
  });
}
