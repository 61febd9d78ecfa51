/**
 * Signed webhook triggers in the studio (issue 13 item 5): a deployed hook trigger's panel shows
 * its endpoint URL and its last deliveries with their outcome — a signed GitHub delivery that
 * started a run (with a link to it) and a forged one refused as hook.bad_signature.
 */
import { signGithub } from '../server/http/webhooks/signatures.ts';
import { BASE_URL } from './helpers/env.ts';
import { node } from './helpers/designer.ts';
import { deployModel, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

test("a hook trigger's panel shows its endpoint and its last deliveries, taken and refused", async ({ page, adminApi, signInAs }) => {
  const mid = uniqueName('hooked').replaceAll('-', '_');
  await adminApi.secrets.set.mutate({ name: 'E2E_HOOK_SECRET', value: 'e2e-hook-secret' });
  await deployModel(`id: ${mid}\non:\n  - { id: github, uses: acts.event.hook, params: { secret: E2E_HOOK_SECRET, signature: github } }\nsteps: [ { id: s1 } ]\n`);
  const url = `${BASE_URL}/hooks/${mid}/github`;
  const body = JSON.stringify({ action: 'opened' });
  const good = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-github-event': 'pull_request', 'x-github-delivery': `d-${mid}`, 'x-hub-signature-256': signGithub('e2e-hook-secret', body) }, body });
  expect(good.status).toBe(202);
  const { pid } = (await good.json()) as { pid: string };
  const forged = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signGithub('guessed', body) }, body });
  expect(forged.status).toBe(401);

  await signInAs(['designer']);
  await page.goto(`/models/${mid}`);
  await node(page, 'trigger:github').click();
  const hook = page.getByRole('region', { name: 'Webhook' });
  await expect(hook.getByLabel('Endpoint (POST)')).toHaveValue(url);
  const rows = hook.getByTestId('hook-delivery');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute('data-result', 'hook.bad_signature');
  await expect(rows.nth(0)).toContainText('does not match the body');
  await expect(rows.nth(1)).toContainText('started · pull_request');
  await rows.nth(1).getByRole('link', { name: 'run' }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${pid}$`));
});
