// docs/forecasts.md, docs/ogc.md and docs/provenance.md against the demo store: the reservoirs the forecast page names
// are the ones with forecasts (each accepted by `evap forecast`), the lines the pages quote are what the CLI says, and
// no page says the store holds no forecasts.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evap, root } from '../cli/harness.js';

const page = (name: string) => readFile(join(root, 'docs', name), 'utf8');
const forecasts = await page('forecasts.md');

describe('docs/forecasts.md', () => {
  it('names, as the reservoirs with demo forecasts, exactly those `evap forecast --list` lists', async () => {
    const sentence = forecasts.replace(/\s+/g, ' ').match(/The demo store has forecasts for (\w+) reservoirs \(([^)]*)\)/);
    expect(sentence).not.toBeNull();
    const named = sentence![2]!.split(', ');
    const list = await evap(['forecast', '--store', 'data', '--list', '--format', 'json']);
    const listed = (JSON.parse(list.stdout) as { RES_NAME: string }[]).map((r) => r.RES_NAME);
    expect([...named].sort()).toEqual([...listed].sort());
    expect(sentence![1]).toBe('twelve');
    expect(listed).toHaveLength(12);
    // each name, asked alone, answers rows (a name the store rejects would fail here)
    for (const name of named) {
      const run = await evap(['forecast', '--store', 'data', '--names', name, '--leads', '1', '--format', 'json']);
      expect([name, run.code, (JSON.parse(run.stdout) as unknown[]).length]).toEqual([name, 0, 1]);
    }
  });

  it('quotes the verification figures `evap forecast --verification` gives for Lake Mead, to their rounding', async () => {
    const text = forecasts.replace(/\s+/g, ' ');
    const m = text.match(
      /mean absolute error of `E_hs` is ([\d.]+) mm at lead 1, ([\d.]+) mm at lead 3 and ([\d.]+) mm at lead 7, where the normal's is ([\d.]+), ([\d.]+) and ([\d.]+) mm \(skill ([-\d.]+), ([-\d.]+), ([-\d.]+)\)/,
    );
    const lead14 = text.match(/Lead 14 at Lake Mead: `E_hs` ([-\d.]+), `E_volume` ([-\d.]+)\./);
    expect(m).not.toBeNull();
    expect(lead14).not.toBeNull();
    const run = await evap(['forecast', '--store', 'data', '--verification', '--names', 'LAKE MEAD', '--variables', 'E_hs,E_volume', '--format', 'json']);
    const rows = JSON.parse(run.stdout) as { variable: string; lead_days: number; mae: number; mae_normal: number; skill: number }[];
    const at = (variable: string, lead: number) => rows.find((r) => r.variable === variable && r.lead_days === lead)!;
    const quoted = (figure: string, value: number) => Math.abs(Number(figure) - value) <= 0.5 * 10 ** -(figure.split('.')[1]?.length ?? 0) + 1e-9;
    const leads = [1, 3, 7];
    leads.forEach((lead, k) => {
      const row = at('E_hs', lead);
      expect([lead, quoted(m![1 + k]!, row.mae), quoted(m![4 + k]!, row.mae_normal), quoted(m![7 + k]!, row.skill)]).toEqual([lead, true, true, true]);
    });
    expect([quoted(lead14![1]!, at('E_hs', 14).skill), quoted(lead14![2]!, at('E_volume', 14).skill)]).toEqual([true, true]);
  });

  it('quotes the line `evap forecast` says for a reservoir without forecasts', async () => {
    const quoted = forecasts.split('\n').find((l) => l.startsWith('evap forecast: no forecasts for ABIQUIU LAKE'));
    const run = await evap(['forecast', '--store', 'data', '--names', 'ABIQUIU LAKE']);
    expect(run.stderr.split('\n')).toContain(quoted);
  });
});

describe('docs/ogc.md', () => {
  it('does not say the store holds no forecasts', async () => {
    const text = (await page('ogc.md')).replace(/\s+/g, ' ');
    expect(text.includes('holds no forecast')).toBe(false);
    expect(text).toContain('forecasts.md'); // it says where the forecasts are
  });
});

describe('docs/provenance.md', () => {
  it('quotes the note `--store data` says on stderr', async () => {
    const table = await page('provenance.md');
    const quoted = table.match(/`(evap: the store data holds SYNTHETIC[^`]*)`/)?.[1];
    const run = await evap(['query', '--store', 'data', '--names', 'LAKE MEAD', '--format', 'json']);
    expect(run.stderr.split('\n')).toContain(quoted);
  });
});
