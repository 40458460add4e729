import { parseArgs } from 'node:util';
import { compileWasmForShortRun, failureMessage, isDomainError, migrateDatabase, openDatabase } from '@docagent/core';
import { loadConfig } from '../config.ts';
import { ADMIN_COMMANDS, isAdminCommand } from './admin.ts';

const HELP = `docagent — document workbench with an LLM agent

Usage:
  docagent serve                      start the server (PORT, DATA_DIR, DATABASE_URL, ...)
  docagent worker                     work text-extraction jobs in this process (needs DATABASE_URL)
  docagent migrate                    apply database migrations and exit
  docagent mcp                        MCP over stdio (DOCAGENT_TOKEN; DOCAGENT_URL of a running server,
                                      or none: the local database, through the server using it if one runs)
  docagent admin create-user  --email E [--password P] [--name N]
  docagent admin create-org   --name N [--admin EMAIL_OR_ID]
  docagent admin add-member   --org ORG_ID --user EMAIL_OR_ID [--role admin|user]
  docagent admin create-token --org ORG_ID --name N [--user EMAIL_OR_ID]
  docagent admin revoke-token --token-id ID

Admin commands take --json to print one JSON object. A password left out is generated,
printed once, and must be changed at first sign-in. On the embedded database, admin
commands also work while a server runs: they reach its database through it.
`;

// Exit codes scripts can tell apart.
const EXIT = { usage: 2, failed: 1, unavailable: 3 } as const;

class UsageError extends Error {}

async function run(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      admin: { type: 'string' },
      org: { type: 'string' },
      user: { type: 'string' },
      role: { type: 'string' },
      'token-id': { type: 'string' },
    },
  });
  const [command, sub] = positionals;
  if (values.help || command === undefined || command === 'help') {
    process.stdout.write(HELP);
    return;
  }
  const config = loadConfig();

  // Each command loads only what it runs: help, migrate and the admin commands start without
  // loading the HTTP server, the agent and the model providers.
  if (command === 'serve') return (await import('../serve.ts')).serve(config);
  if (command === 'worker') return (await import('../worker.ts')).runWorker(config);
  if (command === 'mcp') return (await import('./mcp-command.ts')).runMcp(config);
  // What is left runs a few statements and exits: the embedded database need not be optimized.
  compileWasmForShortRun();

  if (command === 'migrate') {
    const database = await openDatabase(config.database, 'migrate command');
    try {
      await migrateDatabase(database);
    } finally {
      await database.close();
    }
    process.stdout.write(
      values.json ? `${JSON.stringify({ migrated: true })}\n` : `Migrations applied to ${database.describe}.\n`,
    );
    return;
  }

  if (command === 'admin') {
    if (sub === undefined || !isAdminCommand(sub)) throw new UsageError(`Unknown admin command "${sub ?? ''}".`);
    // On the embedded database a running server lends its connection, so admins need not stop it.
    const database = await openDatabase(config.database, 'admin command', { shareRunning: true });
    try {
      await migrateDatabase(database);
      const result = await ADMIN_COMMANDS[sub](database.db, values);
      process.stdout.write(values.json ? `${JSON.stringify(result.json)}\n` : `${result.text}\n`);
    } finally {
      await database.close();
    }
    return;
  }
  throw new UsageError(`Unknown command "${command}".`);
}

export async function main(argv: string[]): Promise<void> {
  const json = argv.includes('--json');
  const fail = (code: number, message: string) => {
    process.stderr.write(`docagent: ${message}\n`);
    if (json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    process.exitCode = code;
  };
  try {
    await run(argv);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      fail(EXIT.usage, `${(error as Error).message}\n\n${HELP}`);
    } else if (isDomainError(error)) {
      fail(error.kind === 'unavailable' ? EXIT.unavailable : EXIT.failed, error.message);
    } else {
      // A failed statement's values (a password hash, an email) stay out of the terminal and its logs.
      fail(EXIT.failed, failureMessage(error));
    }
  }
}
