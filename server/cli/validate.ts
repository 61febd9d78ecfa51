/** `acts validate`: prints every problem of every file; exit 0 when all are valid, 2 when not. */
import { loadModel, formatProblem } from '../engine/model/index.ts';
import { PackageRegistry } from '../engine/packages/registry.ts';
import { createSandbox } from '../engine/sandbox/quickjs.ts';
import { EXIT } from './errors.ts';
import { readText } from './files.ts';

export async function validateCommand(files: string[], print: (line: string) => void, warn: (line: string) => void): Promise<number> {
  const registry = new PackageRegistry();
  const sandbox = await createSandbox();
  let invalid = 0;
  try {
    for (const file of files) {
      let source: string;
      try {
        source = await readText(file, 'model file');
      } catch (err) {
        warn(`acts validate: ${(err as Error).message}`);
        invalid++;
        continue;
      }
      const { workflow, problems, warnings = [] } = loadModel(source, {
        knownPackage: (uses) => registry.isActPackage(uses),
        checkSyntax: (src, mode) => sandbox.checkSyntax(src, mode),
      });
      if (problems.length === 0 && workflow) {
        for (const w of warnings) print(`warning: ${formatProblem(w, file)}`);
        print(`${file}: ok (model '${workflow.id}')`);
        continue;
      }
      invalid++;
      for (const p of problems) print(formatProblem(p, file));
      print(`${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
    }
  } finally {
    sandbox.close();
  }
  return invalid === 0 ? EXIT.complete : EXIT.invalidInput;
}
