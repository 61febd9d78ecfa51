/**
 * The `acts.core.http` package (spec 1.9.2): its call goes to the engine's HTTP client off the
 * lane; once the answer came, in a later job of the process, the act's data gets `data` (the
 * body), `status` and `headers`, and a non-2xx answer fails the act with `ecode` = the status.
 */
import { familyFailure, TaskFailure } from '../errors.ts';
import { httpRequestOf, urlProblem, type HttpParams } from './http-params.ts';
import { HTTP_PARAMS } from './params-schemas.ts';
import type { HttpRequest, HttpResponse } from './http-types.ts';
import type { FuncPackage } from './types.ts';

/** An `http.*` error of the call fails the act with that code as its `ecode`, so catch rules can match it. */
export function httpFailure(err: unknown): unknown {
  return familyFailure(err, 'http.');
}

function bodyText(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body) ?? '';
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** The act's vars from an answer; a non-2xx one fails the act once they are set (catch handlers see them). */
function answered(request: HttpRequest, res: HttpResponse, setVars: (vars: Record<string, unknown>) => void): void {
  setVars({ data: res.body, status: res.status, headers: res.headers });
  if (res.status >= 200 && res.status < 300) return;
  const said = bodyText(res.body);
  throw new TaskFailure({
    ecode: String(res.status),
    message: `${request.method} ${request.url} answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${said ? `: ${said}` : ''}`,
  });
}

export const httpPackage: FuncPackage = {
  name: 'acts.core.http',
  desc: "Calls an HTTP endpoint; its answer's body, status and headers go into the act's data.",
  icon: '',
  doc: '',
  version: '1.0.0',
  schema: HTTP_PARAMS,
  resources: [],
  catalog: 'core',
  run_as: 'func',
  secrets: true,
  paramsProblem(params, decided) {
    const url = (params as HttpParams).url;
    return decided('/url') ? urlProblem(url) : null;
  },
  run(ctx) {
    let request: HttpRequest;
    try {
      request = httpRequestOf(ctx.params as HttpParams);
    } catch (err) {
      throw httpFailure(err);
    }
    ctx.callHttp(request, (res) =>
      answered(request, res, (vars) => {
        ctx.setVars(vars);
        ctx.markOutputs(Object.keys(vars));
      }),
    );
  },
};
