/** Channels (spec 3.5): glob filters, one handler set per channel id, close, per-process order. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../server/engine/messages.ts';
import { createHarness, type Harness } from './helpers/harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await h.deploy(`
id: chan
tag: finance
steps:
  - id: s1
    tag: review
    acts:
      - { uses: acts.core.irq, key: approve, tag: urgent }
      - { uses: acts.core.msg, key: notify }
`);
});
afterEach(async () => {
  await h.close();
});

const keys = (list: Message[]) => list.map((m) => `${m.type}/${m.state}/${m.key}`);

describe('channels', () => {
  it('match type, state, key, uses and tag globs (tag: message or model tag)', async () => {
    const seen: Record<string, Message[]> = { acts: [], created: [], braces: [], tagAct: [], tagModel: [], uses: [], question: [] };
    h.engine.channel({ type: 'act' }).onMessage((m) => void seen.acts.push(m));
    h.engine.channel({ state: 'created', type: '{act,step}' }).onMessage((m) => void seen.created.push(m));
    h.engine.channel({ key: '{approve,notify}', state: 'completed' }).onMessage((m) => void seen.braces.push(m));
    h.engine.channel({ tag: 'urg*' }).onMessage((m) => void seen.tagAct.push(m));
    h.engine.channel({ tag: 'finance', type: 'workflow' }).onMessage((m) => void seen.tagModel.push(m));
    h.engine.channel({ uses: 'acts.core.m*' }).onMessage((m) => void seen.uses.push(m));
    h.engine.channel({ key: 'approv?' }).onMessage((m) => void seen.question.push(m));
    await h.start('chan');
    await h.act('complete', 'approve');
    expect(keys(seen.acts)).toEqual(['act/created/approve', 'act/completed/approve', 'act/completed/notify']);
    expect(keys(seen.created)).toEqual(['step/created/s1', 'act/created/approve']);
    expect(keys(seen.braces)).toEqual(['act/completed/approve', 'act/completed/notify']);
    // every message of the model matches its model tag; `urg*` only the urgent act
    expect(keys(seen.tagAct)).toEqual(['act/created/approve', 'act/completed/approve']);
    expect(keys(seen.tagModel)).toEqual(['workflow/created/chan', 'workflow/completed/chan']);
    expect(keys(seen.uses)).toEqual(['act/completed/notify']);
    expect(keys(seen.question)).toEqual(['act/created/approve', 'act/completed/approve']);
  });

  it('a second channel with the same id replaces the first; close stops delivery', async () => {
    const first: Message[] = [];
    const second: Message[] = [];
    h.engine.channel({ id: 'c' }).onMessage((m) => void first.push(m));
    const replacement = h.engine.channel({ id: 'c' }).onMessage((m) => void second.push(m));
    await h.start('chan');
    expect(first).toHaveLength(0);
    expect(second.length).toBeGreaterThan(0);
    replacement.close();
    const before = second.length;
    await h.act('complete', 'approve');
    expect(second).toHaveLength(before);
  });

  it('process events: on_start, on_complete, on_error', async () => {
    const events: string[] = [];
    h.engine
      .channel({ id: 'p', tag: 'finance' })
      .onStart((m) => void events.push(`start:${m.state}`))
      .onComplete((m) => void events.push(`complete:${m.state}`))
      .onError((m) => void events.push(`error:${m.inputs.ecode}`));
    h.engine.channel({ id: 'other', tag: 'nothing' }).onStart(() => void events.push('wrong channel'));
    await h.start('chan');
    await h.act('complete', 'approve');
    const pid2 = await h.start('chan');
    await h.act('error', 'approve', { ecode: 'no' }, pid2);
    expect(events).toEqual(['start:created', 'complete:completed', 'start:created', 'error:no']);
  });

  it('handlers of one process run one after another in emission order, even when async', async () => {
    const order: string[] = [];
    h.engine.channel({ id: 'slow' }).onMessage(async (m) => {
      order.push(`begin ${m.key}/${m.state}`);
      await new Promise((resolve) => setTimeout(resolve, m.type === 'workflow' ? 20 : 1));
      order.push(`end ${m.key}/${m.state}`);
    });
    await h.start('chan');
    expect(order).toEqual([
      'begin chan/created',
      'end chan/created',
      'begin s1/created',
      'end s1/created',
      'begin approve/created',
      'end approve/created',
    ]);
  });

  it('a handler that throws does not stop the others', async () => {
    const seen: string[] = [];
    h.engine.channel({ id: 'bad' }).onMessage(() => {
      throw new Error('handler bug');
    });
    h.engine.channel({ id: 'good' }).onMessage((m) => void seen.push(m.key));
    await h.start('chan');
    expect(seen).toEqual(['chan', 's1', 'approve']);
  });
});
