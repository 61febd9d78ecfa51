/**
 * Entry point of the `acts` command line. Returns the exit code. Each command's module is
 * imported when that command runs, so `acts --help` and the remote commands do not load the engine.
 */
import { Command, CommanderError } from 'commander';
import { ActError } from '../engine/errors.ts';
import { EXIT, InputError } from './errors.ts';
import { addRemoteCommands } from './remote/register.ts';

// A reader that goes away early (`acts run … | head`) is not a failure of the run: stop writing
// instead of dying with an unhandled EPIPE stack trace; the run still ends with its own exit code.
let stdoutClosed = false;
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  stdoutClosed = true;
});
const out = (line: string) => {
  if (!stdoutClosed) process.stdout.write(`${line}\n`);
};
const err = (line: string) => process.stderr.write(`${line}\n`);

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export async function main(argv: string[]): Promise<number> {
  let code: number = EXIT.complete;
  const program = new Command('acts')
    .description('acts-studio workflow engine: validate and run YAML workflows, or script a running acts server')
    .exitOverride()
    .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) })
    .showHelpAfterError();

  program
    .command('validate')
    .description('check model files; prints every problem with its line and column')
    .argument('<model...>', 'model files (YAML or JSON)')
    .action(async (files: string[]) => {
      const { validateCommand } = await import('./validate.ts');
      code = await validateCommand(files, out, err);
    });

  program
    .command('run')
    .description('run a workflow to its end on an in-memory engine, printing one JSON line per message')
    .argument('<model>', 'the model file to run (YAML or JSON)')
    .option('--model <file>', 'deploy another model first (subflows); repeatable', collect, [])
    .option('--inputs <json>', 'start inputs as a JSON object')
    .option('--respond <file>', 'answers to interrupts, by act key (YAML)')
    .option('--store <url>', 'run on this store instead of memory (file:<path>, postgresql://…)')
    .addHelpText(
      'after',
      '\nExit codes: 0 complete (also aborted), 1 process error, 2 invalid input, 3 waiting for an answer.',
    )
    .action(async (file: string, opts: { model: string[]; inputs?: string; respond?: string; store?: string }) => {
      const { runCommand } = await import('./run.ts');
      code = await runCommand(file, opts, out, err);
    });

  program
    .command('test')
    .description("run a model's saved step tests (its `tests:` list), each node alone on an in-memory engine; one JSON line per case")
    .argument('<model>', 'the model file (YAML or JSON)')
    .option('--model <file>', 'a model that subflow acts call (deployed on each test engine); repeatable', collect, [])
    .option('--limit-ms <ms>', 'wall-clock limit of each case (default 10000, at most 30000)', (v) => Number(v))
    .addHelpText('after', '\nExit codes: 0 every case passed, 1 a case failed, 2 the file cannot be read or its tests: are malformed.')
    .action(async (file: string, opts: { limitMs?: number; model: string[] }) => {
      const { testCommand } = await import('./test.ts');
      code = await testCommand(file, opts, out, err);
    });

  program
    .command('diff')
    .description('the structural changes from one model file to another: nodes added (+), removed (-), changed (~, with the fields) or moved (>)')
    .argument('<a>', 'the old model file (YAML or JSON)')
    .argument('<b>', 'the new model file')
    .option('--json', 'one JSON object per change')
    .addHelpText('after', '\nExit codes: 0 the models are the same, 1 they differ, 2 a file cannot be read or is not a valid model.')
    .action(async (a: string, b: string, opts: { json?: boolean }) => {
      const { diffCommand } = await import('./diff.ts');
      code = await diffCommand([a, b], opts, out, err);
    });

  program
    .command('serve')
    .description('run the engine headless on a durable store; continues unfinished processes, stops on SIGTERM')
    .option('--store <url>', 'file:<path> (SQLite), postgresql://… or memory: (default $DATABASE_URL or file:./data/acts.db)')
    .option('--config <file>', 'configuration file (default acts.config.json when present)')
    .action(async (opts: { store?: string; config?: string }) => {
      const { serveCommand } = await import('./serve.ts');
      code = await serveCommand(opts, out);
    });

  addRemoteCommands(program, { out, err }, (c) => {
    code = c;
  });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return EXIT.complete;
      return EXIT.invalidInput;
    }
    if (e instanceof InputError || (ActError.is(e) && (e.code === 'config.invalid' || e.code.startsWith('secrets.')))) {
      err(`acts: ${e.message.replace(/\s*\n\s*/g, ' ')}`);
      return EXIT.invalidInput;
    }
    err(`acts: unexpected failure: ${(e as Error).message}`);
    return EXIT.processError;
  }
}
