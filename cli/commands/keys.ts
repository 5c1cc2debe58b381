// evap keys: the operator's keys file (digests only: a key is shown once, when made) and the requests sent to /auth/request_key.

import { addKey, readKeyEntries, readKeysFileProblems, revokeKey } from '../../server/keys/keysfile.js';
import { readKeyRequests } from '../../server/keys/requests.js';
import { type Flags, readArgs, stringFlag } from '../args.js';
import { UsageError } from '../command.js';
import type { CliIo } from '../io.js';
import { chooseFormat, writeRecords } from '../output.js';
import { pathIn } from '../paths.js';
import { spreadsheetText, visibleText } from '../safe-text.js';

export const usage = `evap keys <new | list | revoke | requests> --keys-file PATH [options]
  new --label TEXT        make a key: printed once on stdout; its SHA-256 is appended to the keys file with the
                          label and date (a running server with --keys-file PATH accepts it within 2 s)
  new --for ID            the same for a request sent to GET /auth/request_key (labelled with its name and email)
  list                    the keys' ids (a prefix of the digest, never the key), dates and labels
  revoke ID|LABEL         remove keys by id (6 characters or more) or by exact label; a running server drops them
  requests                the key requests received, and which have a key
  --keys-file PATH        the server's keys file (or EVAP_KEYS_FILE)
  --requests-file PATH    where the server appends key requests (or EVAP_REQUESTS_FILE; default <keys-file>.requests)
  --format F              table, csv or json for list and requests`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = readArgs(argv, {
    'keys-file': { type: 'string' },
    'requests-file': { type: 'string' },
    label: { type: 'string' },
    for: { type: 'string' },
    format: { type: 'string' },
  });
  const [action, target, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`unexpected ${JSON.stringify(rest[0])}`);
  const keysFlag = stringFlag(values, 'keys-file') ?? io.env.EVAP_KEYS_FILE;
  if (!keysFlag) throw new UsageError('--keys-file PATH (or EVAP_KEYS_FILE) is required');
  const keysFile = pathIn(io, keysFlag);
  const requestsFile = pathIn(io, stringFlag(values, 'requests-file') ?? (io.env.EVAP_REQUESTS_FILE || `${keysFlag}.requests`));
  // a line the server cannot read grants nothing, and never stops a command: the operator hears which one
  for (const problem of await readKeysFileProblems(keysFile)) io.stderr.write(`warning: ${problem}\n`);
  if (action === 'new') return newKey(io, keysFile, requestsFile, values);
  if (action === 'list') {
    const entries = await readKeyEntries(keysFile);
    await writeRecords(
      io,
      entries.map((e) => ({ ...e })),
      ['id', 'created', 'label'],
      chooseFormat(io, stringFlag(values, 'format'), undefined),
    );
    return 0;
  }
  if (action === 'revoke') {
    if (!target) throw new UsageError('revoke needs the id or label of a key (see evap keys list)');
    const removed = await revokeKey(keysFile, target);
    if (removed.length === 0) throw new Error(`no key in ${keysFile} has the id or label ${JSON.stringify(target)} (see evap keys list)`);
    for (const e of removed) io.stdout.write(`revoked ${e.id} ${e.created} ${e.label}\n`);
    return 0;
  }
  if (action === 'requests') {
    const issued = (await readKeyEntries(keysFile)).map((e) => e.label);
    const requests = await readKeyRequests(requestsFile);
    const format = chooseFormat(io, stringFlag(values, 'format'), undefined);
    // what strangers sent: shown as visible escapes, and never as a formula in a spreadsheet
    const safe = (text: string) => (format === 'csv' ? spreadsheetText(text) : visibleText(text));
    const rows = requests.map((r) => ({
      id: r.id,
      received: r.received,
      name: safe(r.name),
      email: safe(r.email),
      justification: safe(r.justification),
      key: issued.some((l) => l.startsWith(`request ${r.id}:`)) ? 'issued' : 'pending',
    }));
    await writeRecords(io, rows, ['id', 'received', 'name', 'email', 'justification', 'key'], format);
    return 0;
  }
  throw new UsageError(
    action === undefined ? 'give new, list, revoke or requests' : `unknown action ${JSON.stringify(action)}; give new, list, revoke or requests`,
  );
}

async function newKey(io: CliIo, keysFile: string, requestsFile: string, values: Flags): Promise<number> {
  const forId = stringFlag(values, 'for');
  let label = stringFlag(values, 'label');
  let email: string | undefined;
  if (forId !== undefined) {
    const request = (await readKeyRequests(requestsFile)).find((r) => r.id === forId);
    if (!request) throw new Error(`no request ${JSON.stringify(forId)} in ${requestsFile} (see evap keys requests)`);
    label = `request ${request.id}: ${request.name} <${request.email}>`;
    email = request.email;
  }
  if (!label) throw new UsageError('new needs --label TEXT (who the key is for) or --for REQUEST_ID');
  const { key, entry } = await addKey(keysFile, label);
  io.stdout.write(`${key}\n`);
  io.stderr.write(`key ${entry.id} added to ${keysFile} (${entry.label}); it is shown only now${email ? `: send it to ${email}` : ''}\n`);
  return 0;
}
